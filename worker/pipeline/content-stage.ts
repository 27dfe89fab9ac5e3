// The content engine's stages in a submission (issue 27): the transcript after the analysis, the
// caption, transcript, show-notes and blog-post files after rendering (the blog post reaches
// WordPress once the subscriber has reviewed it: platforms/posting.ts). None of them fails the
// submission: what cannot be made is recorded with the reason (EpisodeContent.problems) and
// everything that needs no words is still delivered.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { podcastLanguages } from '../../supabase/functions/_shared/domain/podcast-languages.ts';
import type { ContentStage, EpisodeContent, ShowNotes } from '../../supabase/functions/_shared/domain/episode-content.ts';
import type { OutputKind } from '../../supabase/functions/_shared/domain/episode-page.ts';
import type { TranscriptionSettings } from '../config.ts';
import type { MediaInput } from '../media/ffmpeg.ts';
import type { ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import type { DeliveredFile } from './manifest.ts';
import { captionCues, plainTranscript, toSrt, toWebVtt, transcriptSlice } from '../content/caption-files.ts';
import { transcriptionEngine } from '../transcript/engine.ts';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import type { BlogArticle, EpisodeWriting } from '../../supabase/functions/_shared/domain-server/episode-writing.ts';
import { blogPost } from '../content/blog-post.ts';
import { showNotesMarkdown } from '../content/show-notes.ts';
import { writeEpisode } from '../writing/stage.ts';
import { momentRater } from '../writing/engine.ts';
import { noUsage, type WritingClip, type WritingUsage } from '../writing/writing.ts';
import type { RateMoments } from '../media/clip-selection.ts';
import type { JobContext } from './job-context.ts';

const NO_WORDS = 'no transcript, captions, show notes or blog post were made';

/** The reasons a subscriber reads for what was not made. */
export const contentReasons = {
  noSound: `The episode has no sound: ${NO_WORDS}.`,
  noSpeech: `No speech was recognised in the episode (silence or music only): ${NO_WORDS}.`,
  language: (language: string, engine: string) =>
    `Transcripts in ${podcastLanguages.find((l) => l.value === language)?.label ?? language} are not available with the ${engine} engine: ${NO_WORDS}.`,
  failed: (message: string) => `Transcription failed (${message}): ${NO_WORDS}.`,
  tooLong: (seconds: number) => `Transcription took longer than ${Math.round(seconds / 60)} minutes and was stopped: ${NO_WORDS}.`,
} as const;

/**
 * Fewer words than this per minute (and at least 3) is not speech: engines hear a stray "the" in
 * music or noise, and captions or show notes made of it would be nonsense.
 */
export const MIN_WORDS_PER_MINUTE = 5;

export const isSpeech = (t: Pick<Transcript, 'words' | 'durationSeconds'>) => t.words.length >= Math.max(3, (MIN_WORDS_PER_MINUTE * t.durationSeconds) / 60);

export interface TranscriptOutcome {
  transcript: Transcript | null;
  content: EpisodeContent;
}

export const emptyContent = (): EpisodeContent => ({ transcript: null, showNotes: null, blogPost: null, problems: [] });

const withProblem = (content: EpisodeContent, stage: ContentStage, reason: string): EpisodeContent => ({
  ...content,
  problems: [...content.problems.filter((p) => p.stage !== stage), { stage, reason }],
});

/**
 * What the episode's speech may name: the podcast's title, its host, the episode's guests and
 * title (when the subscriber gave it) and the show's keywords; for an engine that takes a
 * vocabulary (Whisper's prompt).
 */
export function transcriptionVocabulary(job: Pick<ProcessingJob, 'podcast' | 'guests' | 'title' | 'titleConfirmed'>): string[] {
  const { podcast } = job;
  return [
    ...(podcast.title ? [podcast.title] : []),
    ...(podcast.author ? [podcast.author] : []),
    ...job.guests,
    ...(job.titleConfirmed ? [job.title] : []),
    ...(podcast.keywords ?? '').split(/[,;\n]/),
  ].map((term) => term.trim()).filter(Boolean);
}

/** The trimmed episode's words, or the reason there are none. Throws only when the job itself is aborted. */
export async function transcribeStage(
  settings: TranscriptionSettings,
  job: Pick<ProcessingJob, 'language' | 'podcast' | 'guests' | 'title' | 'titleConfirmed'>,
  main: MediaInput,
  range: { start: number; end: number },
  workDir: string,
  signal: AbortSignal,
): Promise<TranscriptOutcome> {
  const content = emptyContent();
  if (!main.info.hasAudio) return { transcript: null, content: withProblem(content, 'transcript', contentReasons.noSound) };
  const engine = transcriptionEngine(settings);
  if (!engine.recognises(job.language)) return { transcript: null, content: withProblem(content, 'transcript', contentReasons.language(job.language, engine.name)) };
  const timeLimit = AbortSignal.timeout(settings.timeLimitSeconds * 1000);
  let transcript: Transcript;
  try {
    transcript = await engine.transcribe({ source: main.file, ...range, language: job.language, vocabulary: transcriptionVocabulary(job), workDir, signal: AbortSignal.any([signal, timeLimit]) });
  } catch (error) {
    if (signal.aborted) throw error;
    const reason = timeLimit.aborted ? contentReasons.tooLong(settings.timeLimitSeconds) : contentReasons.failed((error as Error).message.split('\n')[0].slice(0, 300));
    return { transcript: null, content: withProblem(content, 'transcript', reason) };
  }
  if (!isSpeech(transcript)) return { transcript: null, content: withProblem(content, 'transcript', contentReasons.noSpeech) };
  return { transcript, content };
}

/**
 * The writing engine's rating of the clips' moments for clip choice, when it has one (none
 * without words, none offline), and the spend the episode's writing then adds to.
 */
export function clipRating(ctx: JobContext, job: ProcessingJob, transcript: Transcript | null, signal: AbortSignal): { usage: WritingUsage; rate?: RateMoments } {
  const usage = noUsage();
  const input = { language: job.language, podcast: job.podcast, episode: job };
  return { usage, rate: transcript ? momentRater(ctx.config.writing, input, usage, signal) : undefined };
}

/**
 * The episode's texts written by the configured engine (worker/writing), its spend recorded, and
 * the content kept with the titles it suggests and, when the offline engine had to write them, why.
 */
export async function writingStage(
  ctx: JobContext,
  job: ProcessingJob,
  words: { transcript: Transcript; clips: WritingClip[]; at: number },
  content: EpisodeContent,
  signal: AbortSignal,
  /** What the engine already spent on the episode (rating the clips' moments). */
  usage: WritingUsage,
): Promise<EpisodeWriting> {
  await ctx.store.progress(job.id, 'writing the texts', 13);
  const outcome = await writeEpisode(ctx.config.writing, { language: job.language, podcast: job.podcast, episode: job, ...words }, signal, undefined, usage);
  await ctx.store.writingUsage(job.id, outcome.spend);
  const kept: EpisodeContent = { ...content, titleSuggestions: outcome.writing.titles, problems: content.problems.filter((p) => p.stage !== 'writing') };
  await ctx.store.content(job.id, outcome.problem ? withProblem(kept, 'writing', outcome.problem) : kept);
  return outcome.writing;
}

/** Text files written to `dir` for the delivery, each with what the processing row records of it. */
export function textFiles(dir: string) {
  const files: DeliveredFile[] = [];
  const write = async (name: string, kind: OutputKind, text: string, mimeType: string, durationSeconds: number, captionsFor?: string) => {
    const file = path.join(dir, `text-${files.length}-${kind.replace(/\s/g, '-')}`);
    await writeFile(file, text, 'utf8');
    files.push({ output: { name, kind, durationSeconds, width: 0, height: 0, ...(captionsFor ? { captionsFor } : {}) }, file, mimeType });
  };
  return {
    files,
    write,
    /** A video's captions, SRT and WebVTT, from the words it holds (timed from its own start). */
    async captions(video: string, durationSeconds: number, part: Pick<Transcript, 'words' | 'sentences'>) {
      const cues = captionCues(part);
      const stem = video.replace(/\.mp4$/, '');
      await write(`${stem}.srt`, 'captions', toSrt(cues), 'application/x-subrip', durationSeconds, video);
      await write(`${stem}.vtt`, 'captions', toWebVtt(cues), 'text/vtt', durationSeconds, video);
    },
  };
}

/** The episode's own text files: its captions, its plain transcript and its show notes. */
export async function writeEpisodeTexts(
  texts: ReturnType<typeof textFiles>,
  input: { base: string; episodeTitle: string; transcript: Transcript; notes: ShowNotes; episode: { name: string; durationSeconds: number; introSeconds: number } },
): Promise<string> {
  const { transcript, episode } = input;
  await texts.captions(episode.name, episode.durationSeconds, transcriptSlice(transcript, 0, transcript.durationSeconds, episode.introSeconds));
  const text = plainTranscript(transcript, episode.introSeconds);
  await texts.write(`${input.base} - transcript.txt`, 'transcript', text, 'text/plain', episode.durationSeconds);
  await texts.write(`${input.base} - show notes.md`, 'show notes', showNotesMarkdown(input.episodeTitle, input.notes), 'text/markdown', episode.durationSeconds);
  return text;
}

/**
 * The caption files (SRT and WebVTT) of the episode and each clip, the plain transcript and the
 * show notes, written to `dir`; and the content as the row keeps it.
 */
export async function writeContentFiles(input: {
  dir: string;
  base: string;
  episodeTitle: string;
  transcript: Transcript;
  /** The show notes the writing engine wrote (times in the episode file). */
  notes: ShowNotes;
  content: EpisodeContent;
  episode: { name: string; durationSeconds: number; introSeconds: number };
  clips: { name: string; durationSeconds: number; from: number; to: number; introSeconds: number }[];
}): Promise<{ files: DeliveredFile[]; content: EpisodeContent }> {
  const { transcript, notes } = input;
  const texts = textFiles(input.dir);
  const text = await writeEpisodeTexts(texts, input);
  for (const clip of input.clips) await texts.captions(clip.name, clip.durationSeconds, transcriptSlice(transcript, clip.from, clip.to, clip.introSeconds));
  const content: EpisodeContent = {
    ...input.content,
    transcript: { engine: transcript.engine, language: transcript.language, durationSeconds: transcript.durationSeconds, wordCount: transcript.words.length, text },
    showNotes: notes,
  };
  return { files: texts.files, content };
}

/** The blog post's Markdown file from the written article; the link is the episode's Drive address once it is there. */
export async function writeBlogPost(dir: string, base: string, article: BlogArticle, link: string | null) {
  const post = blogPost(article, link);
  const file = path.join(dir, 'blog-post.md');
  await writeFile(file, post.markdown, 'utf8');
  return { post, file, name: `${base} - blog post.md` };
}
