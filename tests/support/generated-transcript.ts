// Transcripts of any length for the writing engines' tests: topics one after another, each said
// in sentences of its own words, a sentence every 5 seconds (about 130 words a minute).
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';

export const TOPICS = [
  ['garden', 'tomatoes', 'water', 'soil', 'seeds', 'harvest'],
  ['coffee', 'beans', 'grinder', 'espresso', 'roast', 'kettle'],
  ['library', 'books', 'reading', 'shelves', 'librarian', 'stories'],
  ['bicycle', 'wheels', 'commute', 'helmet', 'traffic', 'routes'],
  ['kitchen', 'recipes', 'bread', 'flour', 'oven', 'dinner'],
  ['mountains', 'hiking', 'trails', 'weather', 'boots', 'summit'],
];

const FRAMES = [
  'Today the {a} and the {b} are what we look at closely.',
  'My {a} needs {b} every single week of the year.',
  'Did you know that {a} changes how the {b} turns out?',
  'People in our town say {a} and {b} belong together.',
  'The best {a} I ever had came with fresh {b} on the side.',
  'When the {a} is ready, the {b} follows soon after.',
];

const SENTENCE_SECONDS = 5;

/** A transcript of `minutes`, its topics (TOPICS, in turn) in equal shares. */
export function generatedTranscript(minutes: number, topics = 3, language = 'en'): Transcript {
  const count = Math.round((minutes * 60) / SENTENCE_SECONDS);
  const transcript: Transcript = { engine: 'test', language, durationSeconds: minutes * 60, words: [], sentences: [] };
  for (let i = 0; i < count; i += 1) {
    const words = TOPICS[Math.floor((i * topics) / count) % TOPICS.length];
    const text = FRAMES[i % FRAMES.length].replace('{a}', words[i % words.length]).replace('{b}', words[(i * 7 + 3) % words.length]);
    const start = i * SENTENCE_SECONDS;
    const own = text.split(' ').map((word, j) => ({ text: word, start: start + j * 0.4, end: start + j * 0.4 + 0.35, confidence: 0.9 }));
    transcript.sentences.push({ text, start, end: own[own.length - 1].end, firstWord: transcript.words.length, endWord: transcript.words.length + own.length });
    transcript.words.push(...own);
  }
  return transcript;
}
