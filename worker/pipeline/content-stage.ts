// The content engine's stages in a submission (issue 27): the transcript after the analysis, the
// caption, transcript, show-notes and blog-post files after rendering, the blog post on WordPress
// after Drive. None of them fails the submission: what cannot be made is recorded with the reason
// (EpisodeContent.problems) and everything that needs no words is still delivered.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { podcastLanguages } from '../../supabase/functions/_shared/domain/podcast-languages.ts';
import type { ContentStage, EpisodeContent } from '../../supabase/functions/_shared/domain/episode-content.ts';
import type { OutputKind } from '../../supabase/functions/_shared/domain/episode-page.ts';
import type { TranscriptionSettings, WorkerConfig } from '../config.ts';
import type { AccessTokenSource } from '../platforms/access-token.ts';
import type { MediaInput } from '../media/ffmpeg.ts';
import { publishToWordpress } from '../platforms/social.ts';
import type { ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import type { DeliveredFile } from './manifest.ts';
import { captionCues, plainTranscript, toSrt, toWebVtt, transcriptSlice } from '../content/caption-files.ts';
import { transcriptionEngine } from '../transcript/engine.ts';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import { blogPost } from '../content/blog-post.ts';
import { showNotes, showNotesMarkdown } from '../content/show-notes.ts';

const NO_WORDS = 'no transcript, captions, show notes or blog post were made';

/** The reasons a subscriber reads for what was not made. */
export const contentReasons = {
  noSound: `The episode has no sound: ${NO_WORDS}.`,
  noSpeech: `No speech was recognised in the episode (silence or music only): ${NO_WORDS}.`,
  language: (language: string, engine: string) =>
    `Transcripts in ${podcastLanguages.find((l) => l.value === language)?.label ?? language} are not available with the ${engine} engine: ${NO_WORDS}.`,
  failed: (message: string) => `Transcription failed (${message}): ${NO_WORDS}.`,
  tooLong: (seconds: number) => `Transcription took longer than ${Math.round(seconds / 60)} minutes and was stopped: ${NO_WORDS}.`,
  wordpress: (message: string) => `The blog post is in Drive but could not be published to WordPress: ${message}`,
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

/** The trimmed episode's words, or the reason there are none. Throws only when the job itself is aborted. */
export async function transcribeStage(
  settings: TranscriptionSettings,
  job: Pick<ProcessingJob, 'language'>,
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
    transcript = await engine.transcribe({ source: main.file, ...range, language: job.language, workDir, signal: AbortSignal.any([signal, timeLimit]) });
  } catch (error) {
    if (signal.aborted) throw error;
    const reason = timeLimit.aborted ? contentReasons.tooLong(settings.timeLimitSeconds) : contentReasons.failed((error as Error).message.split('\n')[0].slice(0, 300));
    return { transcript: null, content: withProblem(content, 'transcript', reason) };
  }
  if (!isSpeech(transcript)) return { transcript: null, content: withProblem(content, 'transcript', contentReasons.noSpeech) };
  return { transcript, content };
}

/**
 * The caption files (SRT and WebVTT) of the episode and each clip, the plain transcript, the show
 * notes and the blog post, written to `dir`; and the content as the row keeps it.
 */
export async function writeContentFiles(input: {
  dir: string;
  base: string;
  episodeTitle: string;
  transcript: Transcript;
  content: EpisodeContent;
  episode: { name: string; durationSeconds: number; introSeconds: number };
  clips: { name: string; durationSeconds: number; from: number; to: number; introSeconds: number }[];
}): Promise<{ files: DeliveredFile[]; content: EpisodeContent }> {
  const { dir, base, transcript, episode } = input;
  const files: DeliveredFile[] = [];
  const write = async (name: string, kind: OutputKind, text: string, mimeType: string, durationSeconds: number, captionsFor?: string) => {
    const file = path.join(dir, `text-${files.length}`);
    await writeFile(file, text, 'utf8');
    files.push({ output: { name, kind, durationSeconds, width: 0, height: 0, ...(captionsFor ? { captionsFor } : {}) }, file, mimeType });
  };
  const captionFiles = async (video: string, durationSeconds: number, part: Pick<Transcript, 'words' | 'sentences'>) => {
    const cues = captionCues(part);
    const stem = video.replace(/\.mp4$/, '');
    await write(`${stem}.srt`, 'captions', toSrt(cues), 'application/x-subrip', durationSeconds, video);
    await write(`${stem}.vtt`, 'captions', toWebVtt(cues), 'text/vtt', durationSeconds, video);
  };
  const whole = transcriptSlice(transcript, 0, transcript.durationSeconds, episode.introSeconds);
  await captionFiles(episode.name, episode.durationSeconds, whole);
  for (const clip of input.clips) await captionFiles(clip.name, clip.durationSeconds, transcriptSlice(transcript, clip.from, clip.to, clip.introSeconds));
  const text = plainTranscript(transcript, episode.introSeconds);
  await write(`${base} - transcript.txt`, 'transcript', text, 'text/plain', episode.durationSeconds);

  const notes = showNotes(transcript, episode.introSeconds);
  await write(`${base} - show notes.md`, 'show notes', showNotesMarkdown(input.episodeTitle, notes), 'text/markdown', episode.durationSeconds);
  const content: EpisodeContent = {
    ...input.content,
    transcript: { engine: transcript.engine, language: transcript.language, durationSeconds: transcript.durationSeconds, wordCount: transcript.words.length, text },
    showNotes: notes,
  };
  return { files, content };
}

/** The blog post's Markdown file; the link is the episode's Drive address once it is there. */
export async function writeBlogPost(dir: string, base: string, episodeTitle: string, transcript: Transcript, content: EpisodeContent, link: string | null) {
  if (!content.showNotes) return null;
  const post = blogPost({ episodeTitle, notes: content.showNotes, transcript, link });
  const file = path.join(dir, 'blog-post.md');
  await writeFile(file, post.markdown, 'utf8');
  return { post, file, name: `${base} - blog post.md` };
}

/**
 * The blog post on the subscriber's WordPress when it is connected: a draft, or published when
 * they post automatically. Published once: a retried job finds the post id on the row.
 */
export async function publishBlogStage(
  config: WorkerConfig,
  db: pg.Pool,
  tokens: AccessTokenSource,
  job: Pick<ProcessingJob, 'userId' | 'postAutomatically' | 'content'>,
  post: { title: string; html: string; markdown: string },
  content: EpisodeContent,
): Promise<EpisodeContent> {
  const kept = { title: post.title, markdown: post.markdown, wordpress: job.content?.blogPost?.wordpress ?? null };
  if (kept.wordpress || !job.userId) return { ...content, blogPost: kept };
  const { rows } = await db.query(`select 1 from public.oauth_connections where user_id = $1 and provider = 'wordpress' and connected`, [job.userId]);
  if (rows.length === 0) return { ...content, blogPost: kept };
  const status = job.postAutomatically ? 'publish' : 'draft';
  try {
    const site = await tokens.wordpressSite(job.userId);
    const published = await publishToWordpress(site, { title: post.title, html: post.html, status }, config.wordpressSandboxOrigins);
    return { ...content, blogPost: { ...kept, wordpress: { ...published, status } } };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0].slice(0, 300);
    return withProblem({ ...content, blogPost: kept }, 'wordpress', contentReasons.wordpress(message));
  }
}
