// Each platform reads the text of a post in its own format; every text the worker sends is
// encoded here for the platform it goes to (issue 39, item 4: a title with `<script>` was stored
// as HTML in a published WordPress post). Pure.
//   WordPress  titles are HTML (the REST API stores and shows them as markup): & < > " ' as
//              character references, so the title reads as it was written.
//   YouTube    refuses '<' and '>' in a title or description (invalidTitle / invalidDescription):
//              they become the single angle quotation marks, which read alike.
//   LinkedIn   commentary is "little text": \ | { } @ [ ] ( ) < > # * _ ~ are reserved and
//              escaped with a backslash; a hashtag becomes LinkedIn's hashtag template so it
//              stays a hashtag.
//   X          plain text: sent as it is (X escapes it where it shows it).
// A clip's post on X or LinkedIn ends with a link to the full episode when it fits (withEpisodeLink).
import { PLATFORM_TEXT_LIMITS, xLength } from '../../supabase/functions/_shared/domain/episode-clips.ts';

/** Text shown literally inside HTML (WordPress titles, and text in the blocks the worker builds). */
export const htmlText = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

/** A YouTube title or description: no angle brackets. */
export const youtubeText = (text: string) => text.replace(/</g, '\u2039').replace(/>/g, '\u203A');

const LITTLE_TEXT_RESERVED = /[\\|{}@[\]()<>#*_~]/g;
const HASHTAG = /#([\p{L}\p{N}_]+)/gu;

/** A LinkedIn commentary in little text: reserved characters escaped, hashtags as hashtag templates. */
export function linkedinCommentary(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(HASHTAG)) {
    out += text.slice(last, match.index).replace(LITTLE_TEXT_RESERVED, '\\$&');
    out += `{hashtag|\\#|${match[1].replace(LITTLE_TEXT_RESERVED, '\\$&')}}`;
    last = match.index + match[0].length;
  }
  return out + text.slice(last).replace(LITTLE_TEXT_RESERVED, '\\$&');
}

/** X counts every link as this many characters, whatever its length (t.co). */
const X_LINK_LENGTH = 23;

/**
 * A clip's post on X or LinkedIn with the full episode's public address after it (its YouTube
 * video, else its sound in the show's feed), when text and link fit the platform's limit; the text
 * alone when they do not (it was written, or edited, to the limit) or there is no address yet.
 */
export function withEpisodeLink(platform: 'x' | 'linkedin', text: string, address: string | null): string {
  if (!address) return text;
  const linked = `${text}\n\nFull episode: ${address}`;
  const fits =
    platform === 'x'
      ? xLength(linked) - xLength(address) + X_LINK_LENGTH <= PLATFORM_TEXT_LIMITS.x
      : [...linked].length <= PLATFORM_TEXT_LIMITS.linkedin;
  return fits ? linked : text;
}

/** h:mm:ss (or m:ss under an hour), as YouTube reads chapter times in a description. */
function chapterTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** YouTube makes chapters of a description's timestamps when there are 3 or more, the first at 0:00, each at least 10 s. */
const YOUTUBE_CHAPTERS = { least: 3, firstAt: 0, minSeconds: 10 } as const;

/**
 * The full episode's YouTube description (issue 42, item 6): the show notes' summary, its chapters
 * as YouTube's chapter lines (a first "Intro" line at 0:00 when the first chapter starts later, as
 * after the subscriber's intro), and the keywords as hashtags. Chapters YouTube would not take are
 * left out rather than sent broken.
 */
export function youtubeEpisodeDescription(notes: { summary: string; chapters: { start: number; title: string }[]; keywords: string[] } | null): string {
  if (!notes) return '';
  const chapters = notes.chapters[0] && notes.chapters[0].start > YOUTUBE_CHAPTERS.firstAt ? [{ start: 0, title: 'Intro' }, ...notes.chapters] : notes.chapters;
  const spaced = chapters.every((chapter, i) => i === 0 || chapter.start - chapters[i - 1].start >= YOUTUBE_CHAPTERS.minSeconds);
  const lines = chapters.length >= YOUTUBE_CHAPTERS.least && spaced ? chapters.map((chapter) => `${chapterTime(chapter.start)} ${chapter.title}`) : [];
  const tags = notes.keywords.slice(0, 5).map((keyword) => `#${keyword.replace(/[^\p{L}\p{N}]+/gu, '')}`).filter((tag) => tag.length > 1);
  return [notes.summary.trim(), lines.join('\n'), tags.join(' ')].filter(Boolean).join('\n\n');
}
