// OpenAI's transcription API as the worker's hosted engine calls it through the official SDK:
//   POST /v1/audio/transcriptions (multipart: file, model, language, prompt, response_format,
//   timestamp_granularities[]), Bearer SANDBOX_OPENAI_API_KEY,
// answering `verbose_json` in the API's own shape (text, language, duration, words, segments).
// The speech is really recognised, by Debian's pocketsphinx (US English model) on the uploaded
// audio, so a test reads words that were said; whatever language is asked for, the English model
// hears it. Segments end at pauses of 0.5 s and carry a full stop, as Whisper's punctuated ones do.
// GET /_sandbox/openai/transcriptions lists what each request asked (model, language, prompt).
// The chat-completions API the writing engine calls is chat.ts.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parsePocketsphinxTimes, type TimedWord } from '../../../supabase/functions/_shared/domain-server/pocketsphinx-output.ts';
import { sendJson } from '../../lib/http.ts';
import { readBody } from '../http.ts';
import type { SandboxModule, SandboxRequest } from '../types.ts';
import { chatSandbox } from './chat.ts';

export const SANDBOX_OPENAI_API_KEY = 'sk-castloop-sandbox';

const run = promisify(execFile);
const LANGUAGE_NAMES: Record<string, string> = { en: 'english', es: 'spanish', fr: 'french', de: 'german', it: 'italian', pt: 'portuguese', ru: 'russian', ja: 'japanese', ko: 'korean', zh: 'chinese', ar: 'arabic', hi: 'hindi' };

const error = (message: string, type = 'invalid_request_error') => ({ error: { message, type, param: null, code: null } });

function segmentsOf(words: TimedWord[]) {
  const groups: TimedWord[][] = [];
  for (const word of words) {
    const last = groups[groups.length - 1];
    if (last && word.start - last[last.length - 1].end < 0.5) last.push(word);
    else groups.push([word]);
  }
  return groups.map((g, id) => {
    const text = g.map((w) => w.text).join(' ');
    return { id, seek: 0, start: g[0].start, end: g[g.length - 1].end, text: ` ${text[0].toUpperCase()}${text.slice(1)}.`, tokens: [], temperature: 0, avg_logprob: -0.3, compression_ratio: 1.2, no_speech_prob: 0.01 };
  });
}

/** What a transcription request asked, for the tests (the vocabulary the worker gives Whisper). */
interface TranscriptionAsked {
  model: string;
  language: string | null;
  prompt: string | null;
}

async function transcriptions({ req, res }: SandboxRequest, transcriptionRequests: TranscriptionAsked[]): Promise<void> {
  if (req.headers.authorization !== `Bearer ${SANDBOX_OPENAI_API_KEY}`) {
    req.resume();
    return sendJson(res, 401, error('Incorrect API key provided.', 'invalid_api_key'));
  }
  const body = await readBody(req, 25 * 1024 * 1024);
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData().catch(() => null);
  const file = form?.get('file');
  if (!form || !(file instanceof Blob)) return sendJson(res, 400, error("'file' is a required property"));
  if (form.get('model') !== 'whisper-1') return sendJson(res, 400, error(`Invalid model: ${String(form.get('model'))}`));
  const asked = (name: string) => (typeof form.get(name) === 'string' ? String(form.get(name)) : null);
  transcriptionRequests.push({ model: 'whisper-1', language: asked('language'), prompt: asked('prompt') });
  if (transcriptionRequests.length > 100) transcriptionRequests.shift();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sandbox-openai-'));
  try {
    const input = path.join(dir, 'audio');
    const wav = path.join(dir, 'audio.wav');
    await writeFile(input, new Uint8Array(await file.arrayBuffer()));
    await run(process.env.FFMPEG_PATH || '/usr/bin/ffmpeg', ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-i', input, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wav]);
    const { stdout: durationText } = await run(process.env.FFPROBE_PATH || '/usr/bin/ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav]);
    const { stdout } = await run(process.env.POCKETSPHINX_PATH || '/usr/bin/pocketsphinx_continuous', ['-infile', wav, '-time', 'yes', '-logfn', '/dev/null'], { maxBuffer: 64 * 1024 * 1024 });
    const words = parsePocketsphinxTimes(stdout);
    const granularities = form.getAll('timestamp_granularities[]');
    const language = String(form.get('language') ?? 'en');
    sendJson(res, 200, {
      task: 'transcribe',
      language: LANGUAGE_NAMES[language] ?? language,
      duration: Number(durationText),
      text: words.map((w) => w.text).join(' '),
      ...(granularities.includes('word') ? { words: words.map((w) => ({ word: w.text, start: w.start, end: w.end })) } : {}),
      segments: segmentsOf(words),
    });
  } catch (failure) {
    sendJson(res, 400, error(`Audio file might be corrupted or unsupported: ${(failure as Error).message.split('\n')[0]}`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function createOpenAISandbox(): SandboxModule {
  const chat = chatSandbox(SANDBOX_OPENAI_API_KEY);
  const transcriptionRequests: TranscriptionAsked[] = [];
  return {
    name: 'OpenAI transcriptions and chat completions',
    routes(routes) {
      routes
        .streamed('/v1/audio/transcriptions', (request) => transcriptions(request, transcriptionRequests), 'POST')
        .on('GET', '/_sandbox/openai/transcriptions', ({ res }) => sendJson(res, 200, { requests: transcriptionRequests }))
        .on('POST', '/v1/chat/completions', chat.completions)
        .on('POST', '/_sandbox/openai/chat/behaviour', chat.setBehaviour)
        .on('GET', '/_sandbox/openai/chat/exchanges', chat.showExchanges);
    },
  };
}
