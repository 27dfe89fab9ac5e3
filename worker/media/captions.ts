// Word-timed captions for a clip, as an ASS subtitle script that ffmpeg's libass (`subtitles`
// filter) burns in. Pure: the words come from the transcript, the font from fonts.ts.
//
// A few words are on screen at a time (a group); while each word is spoken it is emphasised (the
// brand accent colour, and for DEFAULT and CREATIVE a larger size). Groups never span a sentence
// or a pause. Per clip style (docs/decisions.md, "Captions on clips"):
//   DEFAULT       3 words, bold, white or black with a thick outline in the primary colour.
//   PROFESSIONAL  up to 6 words on a box in the primary colour, the spoken word in the accent.
//   CREATIVE      2 words, upper case, large, the spoken word popping up in size.
// The text reads on what is behind it whatever the video shows: its colour is white or black,
// whichever contrasts more with the outline or box (the primary brand colour), so at least 4.5:1;
// the accent is the secondary or tertiary brand colour that reaches 3:1 (WCAG, large text) on it,
// else the emphasis is size and underline only.
import { blackOrWhite, contrast, LARGE_TEXT_CONTRAST } from './contrast.ts';
import type { ClipStyle } from '../../supabase/functions/_shared/domain/episodes.ts';
import type { BrandColours } from './styles.ts';
import type { TranscriptWord } from '../../supabase/functions/_shared/domain/transcript.ts';

export interface CaptionWord {
  text: string;
  /** Seconds from the clip's start. */
  start: number;
  end: number;
}

/** Where a 16:9 clip's captions sit (a fraction of the height): low, as on a television. */
const LANDSCAPE_CENTRE_Y = 0.84;

/** The 9:16 area no platform covers with its buttons and texts (fractions of the frame). */
export const SAFE_AREA = { top: 0.12, bottom: 0.75, side: 0.1 } as const;

interface StyleRules {
  wordsPerGroup: number;
  charsPerGroup: number;
  /** Font size as a fraction of the frame height. */
  size: number;
  upperCase: boolean;
  /** The spoken word's size, percent. */
  emphasisScale: number;
  box: boolean;
  /** Vertical centre of the caption, fraction of the height (inside SAFE_AREA). */
  centreY: number;
}

const RULES: Record<ClipStyle, StyleRules> = {
  DEFAULT: { wordsPerGroup: 3, charsPerGroup: 20, size: 0.045, upperCase: false, emphasisScale: 112, box: false, centreY: 0.69 },
  PROFESSIONAL: { wordsPerGroup: 6, charsPerGroup: 32, size: 0.034, upperCase: false, emphasisScale: 100, box: true, centreY: 0.69 },
  CREATIVE: { wordsPerGroup: 2, charsPerGroup: 14, size: 0.055, upperCase: true, emphasisScale: 125, box: false, centreY: 0.68 },
};

const rulesFor = (style: ClipStyle) => RULES[style];

/** A pause this long (seconds) between words starts a new group. */
const GROUP_PAUSE = 0.6;
/** A group stays up this long after its last word when nothing follows at once. */
const LINGER = 0.4;

/** The words spoken inside [start, end) of the episode, timed from `start`. */
export function clipWords(words: TranscriptWord[], sentenceStarts: Set<number>, start: number, end: number): (CaptionWord & { sentenceStart: boolean })[] {
  const out: (CaptionWord & { sentenceStart: boolean })[] = [];
  words.forEach((w, i) => {
    if (w.end <= start || w.start >= end || !w.text.trim()) return;
    out.push({ text: w.text.trim(), start: Math.max(0, w.start - start), end: Math.min(end, w.end) - start, sentenceStart: sentenceStarts.has(i) });
  });
  return out;
}

/** Groups of a few words: never across a sentence start or a pause, within the style's size. */
export function captionGroups(words: (CaptionWord & { sentenceStart?: boolean })[], style: ClipStyle): CaptionWord[][] {
  const rules = rulesFor(style);
  const groups: CaptionWord[][] = [];
  let current: CaptionWord[] = [];
  for (const word of words) {
    const previous = current[current.length - 1];
    const chars = current.reduce((n, w) => n + w.text.length + 1, 0) + word.text.length;
    const breaks =
      previous &&
      (word.sentenceStart || word.start - previous.end > GROUP_PAUSE || current.length >= rules.wordsPerGroup || chars > rules.charsPerGroup);
    if (breaks) {
      groups.push(current);
      current = [];
    }
    current.push({ text: word.text, start: word.start, end: word.end });
  }
  if (current.length) groups.push(current);
  return groups;
}

/** ASS colour: &HAABBGGRR (alpha 00 opaque). */
const assColour = (rgb: string, alpha = '00') => `&H${alpha}${rgb.slice(4, 6)}${rgb.slice(2, 4)}${rgb.slice(0, 2)}`.toUpperCase();

/** H:MM:SS.cc */
function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
}

/** Words as plain text: braces and backslashes would be read as override tags. */
const plain = (text: string) => text.replace(/[{}\\\n\r]/g, '');

export interface CaptionColours {
  text: string;
  /** The outline or box behind the text. */
  backing: string;
  /** The spoken word's colour; null when no brand colour reads on the backing. */
  accent: string | null;
}

/** Text on the primary (the backing) in white or black; the accent a brand colour that reads there. */
export function captionColours(colours: BrandColours): CaptionColours {
  const backing = colours.primary;
  const text = blackOrWhite(backing);
  const accent = [colours.secondary, colours.tertiary]
    .filter((c) => contrast(c, backing) >= LARGE_TEXT_CONTRAST && contrast(c, text) > 1.3)
    .sort((a, b) => contrast(b, backing) - contrast(a, backing))[0];
  return { text, backing, accent: accent ?? null };
}

export interface CaptionScript {
  words: (CaptionWord & { sentenceStart?: boolean })[];
  style: ClipStyle;
  /** A 16:9 frame (the administrators' LANDSCAPE) keeps its captions low, under the faces. */
  aspect?: 'portrait' | 'landscape';
  colours: BrandColours;
  /** The font's family name as its files declare it (fonts.ts). */
  fontFamily: string;
  width: number;
  height: number;
}

/** The ASS script for one clip's captions, sized for a `width`x`height` frame. */
export function captionScript(input: CaptionScript): string {
  const rules = rulesFor(input.style);
  const { text, backing, accent } = captionColours(input.colours);
  const size = Math.round(input.height * rules.size);
  const side = Math.round(input.width * SAFE_AREA.side);
  const outline = rules.box ? Math.round(size * 0.3) : Math.max(2, Math.round(size * 0.1));
  const style = [
    'Caption', input.fontFamily.replace(/,/g, ' '), size, assColour(text), assColour(text), assColour(backing),
    // CREATIVE casts a shadow in the accent (or the backing) for depth; the others none.
    assColour(rules.upperCase ? (accent ?? backing) : backing, '40'),
    -1, 0, 0, 0, 100, 100, 0, 0, rules.box ? 3 : 1, outline, rules.upperCase ? Math.round(size * 0.08) : 0, 5, side, side, 0, 1,
  ].join(',');
  const x = Math.round(input.width / 2);
  // Kept inside the safe area with room for two lines whatever a style asks.
  const centre = input.aspect === 'landscape' ? LANDSCAPE_CENTRE_Y : Math.min(SAFE_AREA.bottom - rules.size * 1.2, Math.max(SAFE_AREA.top + rules.size * 1.2, rules.centreY));
  const y = Math.round(input.height * centre);
  const emphasis = [
    accent ? `\\c${assColour(accent)}` : '',
    rules.emphasisScale !== 100 ? `\\fscx${rules.emphasisScale}\\fscy${rules.emphasisScale}` : '',
    accent ? '' : '\\u1',
  ].join('');
  const events: string[] = [];
  const groups = captionGroups(input.words, input.style);
  groups.forEach((group, g) => {
    const next = groups[g + 1];
    const groupEnd = Math.max(group[group.length - 1].end, next ? Math.min(next[0].start, group[group.length - 1].end + LINGER) : group[group.length - 1].end + LINGER);
    group.forEach((word, i) => {
      const from = word.start;
      const to = i + 1 < group.length ? group[i + 1].start : groupEnd;
      if (to - from < 0.01) return;
      const line = group
        .map((w, j) => {
          const shown = plain(rules.upperCase ? w.text.toUpperCase() : w.text);
          return j === i ? `{${emphasis}}${shown}{\\r}` : shown;
        })
        .join(' ');
      events.push(`Dialogue: 0,${assTime(from)},${assTime(to)},Caption,,0,0,0,,{\\an5\\pos(${x},${y})}${line}`);
    });
  });
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${input.width}`,
    `PlayResY: ${input.height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: ${style}`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
}
