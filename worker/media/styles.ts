// How each clip style (spec: DEFAULT, PROFESSIONAL, CREATIVE) lays a landscape moment out on a
// 9:16 frame, in the subscriber's brand colours; and the one 16:9 layout (the administrators'
// LANDSCAPE: the picture fills the frame, the title on a primary band along the bottom).
//   DEFAULT       the whole picture, centred, on the primary colour.
//   PROFESSIONAL  the picture fills the frame (centre crop); a primary band with a secondary rule
//                 across the bottom.
//   CREATIVE      the picture fills the frame (centre crop) inside a secondary frame line with
//                 tertiary accents at two corners (issue 42, item 7: it was inset on tertiary
//                 bands, a third of the frame empty, the face small, captions over its edge).
// Framed on the speaker (speaker-framing.ts) the picture is first cropped around the talking face
// to 9:16, which then fills the frame in every style.
// Word-timed captions (captions.ts) are burned in by libass inside the safe area. Without words,
// the title is burned into the style's primary-coloured area instead: the bottom band
// (PROFESSIONAL), a top band (CREATIVE), the space above the picture (DEFAULT), in the brand
// colour that reads best on the primary (white or black when none contrasts enough), set in
// DejaVu Sans Bold from npm dejavu-fonts-ttf.
import type { ClipStyle } from '../../supabase/functions/_shared/domain/episodes.ts';
import type { ClipFrame } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import { FALLBACK_FONT } from './fonts.ts';
import { readableOn } from './contrast.ts';

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

/** The title's colour on the primary: the secondary or tertiary brand colour when it reads (contrast >= 3), else white or black. */
const captionColour = (colours: BrandColours) => readableOn(colours.primary, [colours.secondary, colours.tertiary], 3);

/** Quoted for a filtergraph option value (a path or text with ':' or ',' in it). */
const quoted = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export interface Caption {
  /** A UTF-8 file holding the text (drawtext reads it as is: no escaping of the text itself). */
  textFile: string;
  /** Characters in the text, to size it so it fits the width on one line. */
  length: number;
}

/** drawtext centred horizontally with its vertical centre at `centreY`, in an area `areaHeight` tall. */
function captionFilter(caption: Caption, colours: BrandColours, width: number, centreY: number, areaHeight: number): string {
  // DejaVu Sans Bold averages about 0.62 em per character.
  const size = Math.max(8, Math.floor(Math.min(areaHeight * 0.45, (width * 0.9) / (Math.max(1, caption.length) * 0.62))));
  // expansion=none: the text is the subscriber's, burned as written (drawtext would expand %{...}).
  return `drawtext=fontfile=${quoted(FALLBACK_FONT.file)}:textfile=${quoted(caption.textFile)}:expansion=none:fontsize=${size}:fontcolor=0x${captionColour(colours)}:x=(w-text_w)/2:y=${Math.round(centreY)}-text_h/2`;
}

/**
 * The crop window's shape when framing on the speaker: 9:16, which every style's picture fills;
 * null in a 16:9 frame, where the whole picture is kept.
 */
export const framingAspect = (frame: ClipFrame) => (frame.aspect === 'landscape' ? null : 9 / 16);

export interface ClipText {
  /** Word-timed captions: an ASS script and the directory of its font files. */
  captions?: { assFile: string; fontsDir: string };
  /** Without captions: the title in the style's primary area. */
  title?: Caption;
  /** Framed on the speaker: a crop `width` wide, full height, its left edge an expression of t. */
  framing?: { width: number; x: string };
}

/** The video filter chain (after an input label) that produces a `width`x`height` styled frame. */
export function clipStyleFilter(frame: ClipFrame, colours: BrandColours, width: number, height: number, extras: ClipText = {}): string {
  const crop = extras.framing ? [`crop=w=${extras.framing.width}:h=ih:x='${extras.framing.x}':y=0`] : [];
  const captions = extras.captions
    ? [`subtitles=filename=${quoted(extras.captions.assFile)}:fontsdir=${quoted(extras.captions.fontsDir)}`]
    : [];
  const title = extras.captions ? undefined : extras.title;
  const layout = frame.aspect === 'landscape' ? landscapeLayout(colours, width, height, title) : styleLayout(frame.look, colours, width, height, title);
  return [...crop, layout, ...captions].join(',');
}

/** 16:9: the picture fills the frame; without captions the title sits on a primary band along the bottom. */
function landscapeLayout(colours: BrandColours, width: number, height: number, caption?: Caption): string {
  const band = even(height / 8);
  return [
    `scale=${width}:${height}:force_original_aspect_ratio=increase`,
    `crop=${width}:${height}`,
    ...(caption
      ? [`drawbox=x=0:y=${height - band}:w=${width}:h=${band}:color=0x${colours.primary}:t=fill`, captionFilter(caption, colours, width, height - band / 2, band)]
      : []),
  ].join(',');
}

/** CREATIVE's frame line (its inset from the edges and its width) and corner accents, as shares of the frame's width. */
const CREATIVE_FRAME = { inset: 0.035, line: 0.011, accent: 0.22 } as const;

function styleLayout(style: ClipStyle, colours: BrandColours, width: number, height: number, caption?: Caption): string {
  const c = (value: string) => `0x${value}`;
  const text = (centreY: number, areaHeight: number) => (caption ? [captionFilter(caption, colours, width, centreY, areaHeight)] : []);
  switch (style) {
    case 'PROFESSIONAL': {
      const band = even(height / 8);
      const rule = even(height / 120);
      return [
        `scale=${width}:${height}:force_original_aspect_ratio=increase`,
        `crop=${width}:${height}`,
        `drawbox=x=0:y=${height - band}:w=${width}:h=${band}:color=${c(colours.primary)}:t=fill`,
        `drawbox=x=0:y=${height - band}:w=${width}:h=${rule}:color=${c(colours.secondary)}:t=fill`,
        ...text(height - (band - rule) / 2, band - rule),
      ].join(',');
    }
    case 'CREATIVE': {
      // The picture fills the frame (as PROFESSIONAL, and DEFAULT framed on a speaker: the face as
      // large), inside a secondary frame line with tertiary accents at two corners; the title
      // (without words) on a primary band at the top. Captions sit inside the frame line.
      const inset = even(width * CREATIVE_FRAME.inset);
      const line = even(width * CREATIVE_FRAME.line);
      const accent = { w: even(width * CREATIVE_FRAME.accent), h: 2 * line };
      const band = even(height / 10);
      // With a title the frame starts under its band.
      const top = caption ? band + inset : inset;
      return [
        `scale=${width}:${height}:force_original_aspect_ratio=increase`,
        `crop=${width}:${height}`,
        `drawbox=x=${inset}:y=${top}:w=${width - 2 * inset}:h=${height - top - inset}:color=${c(colours.secondary)}:t=${line}`,
        `drawbox=x=${inset}:y=${top}:w=${accent.w}:h=${accent.h}:color=${c(colours.tertiary)}:t=fill`,
        `drawbox=x=${width - inset - accent.w}:y=${height - inset - accent.h}:w=${accent.w}:h=${accent.h}:color=${c(colours.tertiary)}:t=fill`,
        ...(caption ? [`drawbox=x=0:y=0:w=${width}:h=${band}:color=${c(colours.primary)}:t=fill`, ...text(band / 2, band)] : []),
      ].join(',');
    }
    default: {
      // A landscape picture fitted to the width leaves this much primary above it.
      const above = (height - (width * 9) / 16) / 2;
      return [
        `scale=${width}:${height}:force_original_aspect_ratio=decrease`,
        `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=${c(colours.primary)}`,
        ...text(above / 2, Math.min(above, height / 8)),
      ].join(',');
    }
  }
}
