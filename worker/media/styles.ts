// How each clip style (spec: DEFAULT, PROFESSIONAL, CREATIVE) lays a landscape moment out on a
// 9:16 frame, in the subscriber's brand colours.
//   DEFAULT       the whole picture, centred, on the primary colour.
//   PROFESSIONAL  the picture fills the frame (centre crop); a primary band with a secondary rule
//                 across the bottom for captions and the name.
//   CREATIVE      the picture, slightly inset, framed in the secondary colour on the tertiary
//                 colour, with a primary band at the top.
import type { ClipStyle } from '../../supabase/functions/_shared/domain/episodes.ts';

export type { ClipStyle };

export interface BrandColours {
  primary: string;
  secondary: string;
  tertiary: string;
}

/** Used where the profile has no brand colour yet. */
const FALLBACK_COLOURS: BrandColours = { primary: '1F2937', secondary: '6366F1', tertiary: 'F59E0B' };

const hex = /^[0-9A-Fa-f]{6}$/;

export function brandColours(profile: { primary?: string | null; secondary?: string | null; tertiary?: string | null }): BrandColours {
  const pick = (value: string | null | undefined, fallback: string) => (value && hex.test(value) ? value.toUpperCase() : fallback);
  return {
    primary: pick(profile.primary, FALLBACK_COLOURS.primary),
    secondary: pick(profile.secondary, FALLBACK_COLOURS.secondary),
    tertiary: pick(profile.tertiary, FALLBACK_COLOURS.tertiary),
  };
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The video filter chain (after an input label) that produces a `width`x`height` styled frame. */
export function clipStyleFilter(style: ClipStyle | string, colours: BrandColours, width: number, height: number): string {
  const c = (value: string) => `0x${value}`;
  switch (style) {
    case 'PROFESSIONAL': {
      const band = even(height / 8);
      const rule = even(height / 120);
      return [
        `scale=${width}:${height}:force_original_aspect_ratio=increase`,
        `crop=${width}:${height}`,
        `drawbox=x=0:y=${height - band}:w=${width}:h=${band}:color=${c(colours.primary)}:t=fill`,
        `drawbox=x=0:y=${height - band}:w=${width}:h=${rule}:color=${c(colours.secondary)}:t=fill`,
      ].join(',');
    }
    case 'CREATIVE': {
      const inner = even(width * 0.86);
      const frame = even(width / 40);
      const band = even(height / 10);
      return [
        `scale=${inner}:-2`,
        `pad=${inner + 2 * frame}:ih+${2 * frame}:${frame}:${frame}:color=${c(colours.secondary)}`,
        `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=${c(colours.tertiary)}`,
        `drawbox=x=0:y=0:w=${width}:h=${band}:color=${c(colours.primary)}:t=fill`,
      ].join(',');
    }
    default:
      return [
        `scale=${width}:${height}:force_original_aspect_ratio=decrease`,
        `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=${c(colours.primary)}`,
      ].join(',');
  }
}
