// The hosted engine: OpenAI's transcription API (`whisper-1`, `verbose_json` with word and
// segment timestamps) through the official SDK. Audio goes up as 24 kbit/s mono Opus in pieces
// of at most CHUNK_SECONDS (the API takes files up to 25 MB); each piece's times are shifted by
// where it starts. Whisper punctuates, so its segments give the sentences.
import { createReadStream } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import type { TranscriptionVerbose } from 'openai/resources/audio/transcriptions';
import { ffmpeg, inputArgs } from '../media/ffmpeg.ts';
import { inTurns } from '../in-turns.ts';
import { cappedFetch } from '../platforms/provider-answer.ts';
import type { TranscriptionEngine } from './transcript.ts';
import type { Transcript, TranscriptSentence, TranscriptWord } from '../../supabase/functions/_shared/domain/transcript.ts';

/** 20 minutes of 24 kbit/s Opus is about 3.6 MB, well under the API's 25 MB per file. */
const CHUNK_SECONDS = 20 * 60;
/**
 * A 20-minute piece's verbose_json (every word timed, every segment) is a few hundred kilobytes:
 * its answer is read up to this cap.
 */
const ANSWER_MAX_BYTES = 16 * 1024 * 1024;
/** Requests in flight at once for one episode: well inside the API's per-minute limits. */
const REQUESTS_AT_ONCE = 4;
/** Whisper reads the last 224 tokens of a prompt: about this many characters of names and terms. */
const PROMPT_CHARACTERS = 600;

/**
 * Whisper's prompt from a vocabulary: the names and terms, comma-separated (no words of any one
 * language around them, so the prompt does not pull the transcript towards English), the first
 * ones kept when there are too many; undefined when there are none.
 */
export function whisperPrompt(vocabulary: readonly string[] = []): string | undefined {
  const terms = [...new Set(vocabulary.map((term) => term.replace(/\s+/g, ' ').trim()).filter(Boolean))];
  let prompt = '';
  for (const term of terms) {
    const next = prompt ? `${prompt}, ${term}` : term;
    if (next.length > PROMPT_CHARACTERS) break;
    prompt = next;
  }
  return prompt ? `${prompt}.` : undefined;
}

/** Whisper's languages among those a podcast can have (the onboarding list), as BCP 47 tags. */
export const WHISPER_LANGUAGES: Record<string, string> = {
  en: 'en', es: 'es', fr: 'fr', de: 'de', it: 'it', pt: 'pt', ru: 'ru', ja: 'ja', ko: 'ko', zh: 'zh', ar: 'ar', hi: 'hi',
};

/**
 * Words and sentences from verbose_json answers, each shifted by its piece's offset. A segment is
 * a sentence (its words are those that start inside it); a segment with no timed word is dropped.
 * A word's confidence is its segment's: e to its mean log-probability.
 */
export function transcriptFromWhisper(pieces: { offset: number; answer: TranscriptionVerbose }[]): { words: TranscriptWord[]; sentences: TranscriptSentence[] } {
  const words: TranscriptWord[] = [];
  const sentences: TranscriptSentence[] = [];
  for (const { offset, answer } of pieces) {
    const own: TranscriptWord[] = (answer.words ?? []).map((w) => ({ text: w.word.trim(), start: offset + w.start, end: offset + w.end })).filter((w) => w.text);
    let next = 0;
    for (const segment of answer.segments ?? []) {
      const firstWord = words.length + next;
      // Whisper reports how sure it is per segment (its tokens' mean log-probability): each word takes its segment's.
      const confidence = Math.min(1, Math.max(0, Math.exp(segment.avg_logprob)));
      while (next < own.length && own[next].start < offset + segment.end) {
        own[next] = { ...own[next], confidence };
        next += 1;
      }
      const endWord = words.length + next;
      if (endWord > firstWord) {
        sentences.push({ text: segment.text.trim(), start: own[firstWord - words.length].start, end: own[endWord - words.length - 1].end, firstWord, endWord });
      }
    }
    // Words after the last segment still count: they join a sentence of their own.
    if (next < own.length) {
      const rest = own.slice(next);
      sentences.push({ text: rest.map((w) => w.text).join(' '), start: rest[0].start, end: rest[rest.length - 1].end, firstWord: words.length + next, endWord: words.length + own.length });
    }
    words.push(...own);
  }
  return { words, sentences };
}

export function openaiEngine(settings: { apiKey: string; baseUrl: string | null; model: string }): TranscriptionEngine {
  const client = new OpenAI({ apiKey: settings.apiKey, baseURL: settings.baseUrl ?? undefined, maxRetries: 3, timeout: 10 * 60_000, fetch: cappedFetch(ANSWER_MAX_BYTES) });
  return {
    name: 'openai',
    recognises: (language) => WHISPER_LANGUAGES[language] !== undefined,
    async transcribe({ source, start, end, language, vocabulary, workDir, signal }): Promise<Transcript> {
      const prompt = whisperPrompt(vocabulary);
      const offsets: number[] = [];
      for (let offset = 0; offset < end - start; offset += CHUNK_SECONDS) offsets.push(offset);
      // The pieces are asked for side by side (REQUESTS_AT_ONCE at a time): a 60-minute episode
      // waits for one answer, not three in a row (issue 45: the wait before review).
      const pieces = await inTurns(offsets, REQUESTS_AT_ONCE, async (offset, i) => {
        const file = path.join(workDir, `speech-${i}.ogg`);
        const to = Math.min(end, start + offset + CHUNK_SECONDS);
        await ffmpeg(
          [...inputArgs('video', source, ['-ss', (start + offset).toFixed(3), '-to', to.toFixed(3)]), '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'libopus', '-b:a', '24k', '-f', 'ogg', file],
          signal,
        );
        const answer = await client.audio.transcriptions.create(
          {
            file: createReadStream(file),
            model: settings.model,
            language: WHISPER_LANGUAGES[language],
            ...(prompt ? { prompt } : {}),
            response_format: 'verbose_json',
            timestamp_granularities: ['word', 'segment'],
          },
          { signal },
        );
        return { offset, answer };
      });
      return { engine: `openai ${settings.model}`, language: WHISPER_LANGUAGES[language], durationSeconds: end - start, ...transcriptFromWhisper(pieces) };
    },
  };
}
