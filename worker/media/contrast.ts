// WCAG 2 contrast between RRGGBB colours, and the caption colours chosen with it.

/** WCAG relative luminance of an RRGGBB colour. */
export function luminance(colour: string): number {
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = parseInt(colour.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio, 1 (same) to 21 (black on white). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG AA for normal text; captions are large bold text, for which 3:1 is AA. */
export const TEXT_CONTRAST = 4.5;
export const LARGE_TEXT_CONTRAST = 3;

/** White or black, whichever reads better on `background` (always at least 4.5:1). */
export const blackOrWhite = (background: string) => (contrast('FFFFFF', background) >= contrast('000000', background) ? 'FFFFFF' : '000000');

/**
 * The first of `candidates` (brand colours, best first) reading on `background` at `minimum`,
 * else the better of white and black.
 */
export function readableOn(background: string, candidates: string[], minimum: number): string {
  const [best] = [...candidates].sort((a, b) => contrast(b, background) - contrast(a, background));
  return best && contrast(best, background) >= minimum ? best : blackOrWhite(background);
}
