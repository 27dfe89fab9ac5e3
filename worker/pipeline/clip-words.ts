// Where process-submission.ts meets the words for clips: which moments (sentences and sound, or
// sound alone without a transcript), the episode's title when the subscriber gave none, each
// clip's title and posts, and each clip's captions and framing.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import { captionScript, clipWords } from '../media/captions.ts';
import { clipCopy, episodeTitleFromWords, localKeywords, type ClipCopy } from '../content/clip-copy.ts';
import {
  selectClips,
  selectClipsFromWords,
  selectRatedClipsFromWords,
  type AudioProfile,
  type ClipRange,
  type RateMoments,
} from '../media/clip-selection.ts';
import { captionFont, type FontSource } from '../media/fonts.ts';
import type { MediaInput } from '../media/ffmpeg.ts';
import { detectFaces, cropExpression, speakerPath } from '../media/speaker-framing.ts';
import type { ClipFrame } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import { framingAspect, type BrandColours, type Caption, type ClipText } from '../media/styles.ts';

const hasWords = (t: Transcript | null): t is Transcript => !!t && t.words.length > 0 && t.sentences.length > 0;

/** The episode's keywords: the given ones (show notes'), else a local list from the transcript. */
export function episodeKeywords(transcript: Transcript | null, given?: string[]): string[] {
  if (given?.length) return given;
  return hasWords(transcript) ? localKeywords(transcript.sentences.map((s) => s.text)) : [];
}

export interface ClipChoice {
  /** A writing engine's own rating of the best moments (clip-selection.ts); without it, words and sound decide. */
  rate?: RateMoments;
  log: (line: string) => void;
}

/**
 * The moments: whole sentences scored on the words and the sound when there is a transcript (and
 * a run of sentences fits the clip lengths), else by sound. A rating that fails is logged and the
 * words and sound decide: choosing clips never fails an episode.
 */
export async function chooseClips(transcript: Transcript | null, profile: AudioProfile, count: number, keywords: string[], choice: ClipChoice): Promise<ClipRange[]> {
  if (!hasWords(transcript)) return selectClips(profile, count);
  const episode = { sentences: transcript.sentences, keywords, language: transcript.language, durationSeconds: profile.durationSeconds, profile };
  if (choice.rate) {
    try {
      const rated = await selectRatedClipsFromWords(episode, count, choice.rate);
      if (rated.length) return rated;
    } catch (error) {
      choice.log(`clips chosen without the writing engine's rating: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const spoken = selectClipsFromWords(episode, count);
  return spoken.length ? spoken : selectClips(profile, count);
}

/**
 * The episode's title: the subscriber's when they gave or accepted one, else one made from the
 * transcript's keywords (a suggestion they accept or change before anything posts), else the one
 * it has (its file's name).
 */
export function episodeTitle(job: { title: string; titleConfirmed: boolean }, keywords: string[]): string {
  if (job.titleConfirmed) return job.title;
  return episodeTitleFromWords(keywords) ?? job.title;
}

/** The sentences a clip holds (the words it spans when it was chosen by sound). */
function clipSentences(transcript: Transcript, clip: ClipRange): string[] {
  if (clip.sentences) return transcript.sentences.slice(clip.sentences.first, clip.sentences.end).map((s) => s.text);
  return transcript.sentences.filter((s) => s.end > clip.start && s.start < clip.end).map((s) => s.text);
}

/** A clip's title and posts from its own words; without words, `fallbackTitle` everywhere (as before). */
export function copyForClip(transcript: Transcript | null, clip: ClipRange, keywords: string[], title: string, fallbackTitle: string): ClipCopy {
  const copy = hasWords(transcript) ? clipCopy(clipSentences(transcript, clip), keywords, title) : null;
  return (
    copy ?? {
      title: fallbackTitle,
      posts: {
        youtube: { title: fallbackTitle, description: '' },
        x: { text: fallbackTitle },
        linkedin: { text: fallbackTitle },
        wordpress: { title: fallbackTitle, content: '' },
      },
    }
  );
}

export interface ClipTextInput {
  transcript: Transcript | null;
  /** Where the trimmed episode (the clips' and the transcript's zero) starts in the file. */
  trimStart: number;
  main: MediaInput;
  frame: ClipFrame;
  colours: BrandColours;
  /** The profile's brand font, fetched (fonts.ts) only when some clip has words to caption. */
  brandFont: string | null;
  fonts: Omit<FontSource, 'signal' | 'log'>;
  /** The clip frame's size. */
  width: number;
  height: number;
  /** Burned in instead of captions when a moment has no words. */
  title: Caption;
  dir: string;
  log: (line: string) => void;
  signal?: AbortSignal;
}

/**
 * Per clip: its captions (an ASS file written to `dir`) or the title, and its framing on the
 * speaker when a face is found (one detector run for all clips).
 */
export async function clipTexts(input: ClipTextInput, clips: ClipRange[]): Promise<ClipText[]> {
  const texts: ClipText[] = [];
  const spoken = clips.map((clip) =>
    hasWords(input.transcript) ? clipWords(input.transcript.words, new Set(input.transcript.sentences.map((s) => s.firstWord)), clip.start, clip.end) : [],
  );
  const font = spoken.some((words) => words.length)
    ? await captionFont(input.brandFont, { ...input.fonts, signal: input.signal, log: input.log })
    : null;
  for (const [i, words] of spoken.entries()) {
    if (!font || !words.length) {
      texts.push({ title: input.title });
      continue;
    }
    const assFile = path.join(input.dir, `clip-${i + 1}.ass`);
    await writeFile(
      assFile,
      captionScript({ words, style: input.frame.look, aspect: input.frame.aspect, colours: input.colours, fontFamily: font.family, width: input.width, height: input.height }),
      'utf8',
    );
    texts.push({ captions: { assFile, fontsDir: font.dir } });
  }
  const video = input.main.info.video;
  const aspect = framingAspect(input.frame);
  if (!video || aspect === null) return texts;
  const cropWidth = Math.max(2, Math.round((video.height * aspect) / 2) * 2);
  // A picture no wider than the crop (portrait) has nothing to frame.
  if (cropWidth >= video.width - 2) return texts;
  const ranges = clips.map((c) => ({ start: input.trimStart + c.start, end: input.trimStart + c.end }));
  const faces = await detectFaces(input.main.file, video, ranges, input.dir, input.log, input.signal);
  return texts.map((text, i) => {
    const keys = faces[i] && speakerPath(faces[i], video.width, cropWidth);
    return keys ? { ...text, framing: { width: cropWidth, x: cropExpression(keys) } } : text;
  });
}
