// The worker's settings, from its environment (docs/deploy.md lists them).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROVIDERS, isOAuthProviderId, type OAuthProviderId } from '../supabase/functions/_shared/domain/connection-status.ts';
import { oauthProviderConfigFromEnv, type OAuthProviderConfig } from '../supabase/functions/_shared/domain-server/oauth-token-endpoint.ts';
import { parseOrigins } from '../supabase/functions/_shared/domain-server/public-address.ts';
import { promptProblems } from './writing/chat/prompts.ts';

/** How the worker encodes (x264 presets, quality, the clips' size). */
export interface EncodeSettings {
  /** x264 preset of the episode (and a join of parts): X264_PRESETS in production, 'ultrafast' in tests. */
  preset: string;
  /** x264 preset of the clips. */
  clipPreset: string;
  crf: number;
  /** Height of the 9:16 clips (1920 in production); the width follows. */
  clipHeight: number;
}

export interface WorkerConfig {
  /** Postgres, as a server role (`postgres`): the queue lives in this database. */
  databaseUrl: string;
  /** Supabase API (Storage) and the service role key the worker downloads with. */
  supabaseUrl: string;
  serviceRoleKey: string;
  /** The keyring the OAuth tokens were encrypted with (TOKEN_ENCRYPTION_KEYS, as the functions have it). */
  tokenKeyring: string;
  /** The OAuth clients (as the functions have them) the worker refreshes tokens with. */
  oauthClients: Partial<Record<OAuthProviderId, OAuthProviderConfig>>;
  /** Google APIs (Drive, YouTube): the sandbox locally, https://www.googleapis.com when unset. */
  googleApiBase: string;
  /** The local sandbox's WordPress origins, the only non-public sites the worker may post to (unset in production). */
  wordpressSandboxOrigins: string[];
  /** X API v2 and LinkedIn's API: the sandbox locally, the platforms themselves when unset. */
  xApiBase: string;
  linkedinApiBase: string;
  /** LinkedIn's versioned API (`LinkedIn-Version`, YYYYMM). */
  linkedinVersion: string;
  /** A failed post is tried again after this many seconds times its attempts. */
  postRetrySeconds: number;
  /** Jobs processed at once by this process (ffmpeg uses every core: 1 per machine is right). */
  concurrency: number;
  /** Where inputs and renders are written while a job runs. */
  tempDir: string;
  /** A worker that stops sending heartbeats for this long has its job retried elsewhere. */
  heartbeatSeconds: number;
  /** How often the queue's supervisor looks for dead workers' jobs (seconds). */
  superviseSeconds: number;
  /** How often the feeder looks for new submissions when no notification arrives (ms). */
  feedIntervalMs: number;
  /** A subscriber's jobs processed at once across every worker, so one subscriber cannot take them all. */
  jobsPerSubscriber: number;
  /** Attempts before a submission is marked failed. */
  retryLimit: number;
  retryDelaySeconds: number;
  encode: EncodeSettings;
  /**
   * Seconds of the episode's main part in one video piece (docs/decisions.md "Processing in
   * pieces"); tests set a few seconds to split their short fixtures.
   */
  segmentSeconds: number;
  /** npm registry the brand fonts (@fontsource) are fetched from; null ('off'): captions in the fallback font. */
  fontRegistry: string | null;
  /** GET /health on this port (worker/health.ts); null: no health server. */
  healthPort: number | null;
  /** This process, as recorded on the rows it works on. */
  workerName: string;
  transcription: TranscriptionSettings;
  writing: WritingSettings;
  /** ffmpeg, ffprobe and the face detector (checked: ffmpeg and ffprobe must exist). */
  media: MediaTools;
}

/** The speech-recognition engine (docs/decisions.md "The content engine"). */
export interface TranscriptionSettings {
  engine: 'pocketsphinx' | 'openai';
  /** Past this, transcription is given up and everything that needs no words is still made. */
  timeLimitSeconds: number;
  /** Debian's `pocketsphinx` and `pocketsphinx-en-us` (scripts/ensure-ffmpeg.sh, the worker image). */
  pocketsphinx: {
    binary: string;
    modelDir: string;
    /** Pieces of the speech recognised side by side (worker/transcript/speech-segments.ts): the machine's cores by default. */
    parallel: number;
  };
  /** OpenAI's transcription API; `baseUrl` is the local sandbox's in development. */
  openai: { apiKey: string; baseUrl: string | null; model: string };
}

/**
 * The writing engine: titles, show notes, the blog article and the clips' posts (docs/decisions.md
 * "The writing engine"). `extractive` writes offline from the transcript's own sentences;
 * `openai` asks an OpenAI-compatible chat-completions API (OpenAI, Azure OpenAI, Groq, Together,
 * vLLM, Ollama) and falls back to `extractive` when it cannot answer.
 */
export interface WritingSettings {
  engine: 'extractive' | 'openai';
  /** With `openai`: where, with what key and which model. `baseUrl` null is OpenAI itself. */
  openai: { apiKey: string; baseUrl: string | null; model: string };
  /** Tokens one request may use, prompt and answer together: a longer transcript is written in pieces. */
  contextTokens: number;
  /** One request's time limit; a request that runs past it is tried once more, then the extractive engine writes. */
  timeoutSeconds: number;
  /** Requests sent side by side (the pieces of a long transcript). */
  parallel: number;
  /** US dollars per million prompt (input) and answer (output) tokens: each episode's cost is recorded. */
  pricePerMillion: { input: number; output: number };
  /** A directory whose `<name>.md` files replace the repository's prompts (worker/writing/prompts); null: the repository's. */
  promptsDir: string | null;
}

const GOOGLE_API = 'https://www.googleapis.com';

/**
 * x264 presets per output, chosen by measured quality per CPU second (docs/decisions.md, "No more
 * work than the outputs need"); WORKER_X264_PRESET sets both (the tests: ultrafast).
 */
export const X264_PRESETS = { episode: 'veryfast', clip: 'ultrafast' };

/** localhost, 127.0.0.0/8 or ::1: a server on this machine. */
const isLoopbackHost = (hostname: string) => hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';

/**
 * Reads settings from `env`, collecting every problem, so one error names them all. Nothing is
 * filled in from the local stack: it passes its own values (local/worker.ts).
 */
function settingsReader(env: NodeJS.ProcessEnv) {
  const problems: string[] = [];
  const raw = (key: string) => env[key]?.trim() ?? '';
  const url = (key: string, protocols: string[]) => {
    const value = raw(key);
    try {
      if (value && !protocols.includes(new URL(value).protocol)) problems.push(`${key} must be a ${protocols.join(' or ')} URL`);
    } catch {
      problems.push(`${key} is not a URL`);
    }
    return value.replace(/\/$/, '');
  };
  return {
    required(key: string): string {
      if (!raw(key)) problems.push(`${key} is not set`);
      return raw(key);
    },
    requiredUrl(key: string, protocols: string[]): string {
      if (!raw(key)) problems.push(`${key} is not set`);
      return raw(key) ? url(key, protocols) : '';
    },
    /**
     * An API base; unset means the platform itself. The worker sends tokens and the episode's
     * words there, so plain http only to this machine (the local sandboxes), https anywhere else.
     */
    apiBase(key: string, platform: string): string {
      if (!raw(key)) return platform;
      const value = url(key, ['http:', 'https:']);
      if (URL.canParse(value) && new URL(value).protocol === 'http:' && !isLoopbackHost(new URL(value).hostname)) {
        problems.push(`${key} must be an https: URL (plain http only for a loopback address), got "${value}"`);
      }
      return value;
    },
    int(key: string, fallback: number, min = 1): number {
      const value = raw(key);
      if (value === '') return fallback;
      const parsed = Number(value);
      if (Number.isInteger(parsed) && parsed >= min) return parsed;
      problems.push(`${key} must be an integer >= ${min}, got "${value}"`);
      return fallback;
    },
    /** A decimal number >= 0 (prices). */
    decimal(key: string, fallback: number): number {
      const value = raw(key);
      if (value === '') return fallback;
      const parsed = Number(value);
      if (Number.isFinite(parsed) && parsed >= 0) return parsed;
      problems.push(`${key} must be a number >= 0, got "${value}"`);
      return fallback;
    },
    problem(message: string): void {
      problems.push(message);
    },
    /** Throws naming every problem found so far. */
    check(): void {
      if (problems.length > 0) throw new Error(`Worker misconfigured: ${problems.join('; ')} (docs/deploy.md, section 10).`);
    },
  };
}

function oauthClients(env: NodeJS.ProcessEnv): Partial<Record<OAuthProviderId, OAuthProviderConfig>> {
  const clients: Partial<Record<OAuthProviderId, OAuthProviderConfig>> = {};
  for (const { id } of PROVIDERS) {
    if (!isOAuthProviderId(id)) continue;
    const config = oauthProviderConfigFromEnv(id, env);
    if (config) clients[id] = config;
  }
  return clients;
}

function transcriptionSettings(env: NodeJS.ProcessEnv, read: ReturnType<typeof settingsReader>): TranscriptionSettings {
  const engine = env.TRANSCRIPTION_ENGINE?.trim() || 'pocketsphinx';
  if (engine !== 'pocketsphinx' && engine !== 'openai') read.problem(`TRANSCRIPTION_ENGINE must be pocketsphinx or openai, got "${engine}"`);
  return {
    engine: engine === 'openai' ? 'openai' : 'pocketsphinx',
    timeLimitSeconds: read.int('TRANSCRIPTION_TIME_LIMIT_SECONDS', 1800),
    pocketsphinx: {
      binary: env.POCKETSPHINX_PATH || '/usr/bin/pocketsphinx_continuous',
      modelDir: env.POCKETSPHINX_MODEL_DIR || '/usr/share/pocketsphinx/model/en-us',
      parallel: read.int('POCKETSPHINX_PARALLEL', os.availableParallelism(), 1),
    },
    openai: {
      apiKey: engine === 'openai' ? read.required('OPENAI_API_KEY') : '',
      baseUrl: env.OPENAI_BASE_URL ? read.apiBase('OPENAI_BASE_URL', '') : null,
      model: env.OPENAI_TRANSCRIPTION_MODEL || 'whisper-1',
    },
  };
}

function writingSettings(env: NodeJS.ProcessEnv, read: ReturnType<typeof settingsReader>): WritingSettings {
  const engine = env.WRITING_ENGINE?.trim() || 'extractive';
  if (engine !== 'extractive' && engine !== 'openai') read.problem(`WRITING_ENGINE must be extractive or openai, got "${engine}"`);
  const chat = engine === 'openai';
  return {
    engine: chat ? 'openai' : 'extractive',
    openai: {
      apiKey: chat ? read.required('WRITING_API_KEY') : '',
      baseUrl: env.WRITING_BASE_URL?.trim() ? read.apiBase('WRITING_BASE_URL', '') : null,
      model: env.WRITING_MODEL?.trim() || 'gpt-4o-mini',
    },
    contextTokens: read.int('WRITING_CONTEXT_TOKENS', 16_000, 4_000),
    timeoutSeconds: read.int('WRITING_TIMEOUT_SECONDS', 120),
    parallel: read.int('WRITING_PARALLEL', 4),
    // gpt-4o-mini's list prices (2026); another model or provider: set its own (0 for a model of your own).
    pricePerMillion: { input: read.decimal('WRITING_PRICE_INPUT_PER_MILLION', 0.15), output: read.decimal('WRITING_PRICE_OUTPUT_PER_MILLION', 0.6) },
    promptsDir: env.WRITING_PROMPTS_DIR?.trim() || null,
  };
}

/** The worker's settings, or an error that names every missing or malformed one. */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const read = settingsReader(env);
  const raw = (key: string) => env[key]?.trim() ?? '';
  const config: WorkerConfig = {
    databaseUrl: read.requiredUrl('WORKER_DATABASE_URL', ['postgres:', 'postgresql:']),
    supabaseUrl: read.requiredUrl('SUPABASE_URL', ['http:', 'https:']),
    serviceRoleKey: read.required('SUPABASE_SERVICE_ROLE_KEY'),
    tokenKeyring: read.required('TOKEN_ENCRYPTION_KEYS'),
    oauthClients: oauthClients(env),
    // One setting switches Drive and YouTube between the local sandbox and Google itself.
    googleApiBase: read.apiBase('GOOGLE_API_BASE', GOOGLE_API),
    wordpressSandboxOrigins: parseOrigins(env.WORDPRESS_SANDBOX_ORIGINS),
    xApiBase: read.apiBase('X_API_BASE', 'https://api.x.com'),
    linkedinApiBase: read.apiBase('LINKEDIN_API_BASE', 'https://api.linkedin.com'),
    linkedinVersion: env.LINKEDIN_API_VERSION || '202505',
    postRetrySeconds: read.int('WORKER_POST_RETRY_SECONDS', 300),
    concurrency: read.int('WORKER_CONCURRENCY', 1),
    tempDir: env.WORKER_TEMP_DIR || path.join(os.tmpdir(), 'castloop-worker'),
    heartbeatSeconds: read.int('WORKER_HEARTBEAT_SECONDS', 30, 10),
    superviseSeconds: read.int('WORKER_SUPERVISE_SECONDS', 30),
    feedIntervalMs: read.int('WORKER_FEED_INTERVAL_MS', 5000, 100),
    jobsPerSubscriber: read.int('WORKER_JOBS_PER_SUBSCRIBER', 1),
    retryLimit: read.int('WORKER_RETRY_LIMIT', 3, 0),
    retryDelaySeconds: read.int('WORKER_RETRY_DELAY_SECONDS', 30, 0),
    encode: {
      preset: env.WORKER_X264_PRESET || X264_PRESETS.episode,
      clipPreset: env.WORKER_X264_PRESET || X264_PRESETS.clip,
      crf: read.int('WORKER_X264_CRF', 21),
      clipHeight: read.int('WORKER_CLIP_HEIGHT', 1920, 16),
    },
    segmentSeconds: read.int('WORKER_SEGMENT_SECONDS', 60),
    fontRegistry: raw('WORKER_FONT_REGISTRY') === 'off' ? null : read.apiBase('WORKER_FONT_REGISTRY', 'https://registry.npmjs.org'),
    healthPort: env.WORKER_HEALTH_PORT ? read.int('WORKER_HEALTH_PORT', 0) : null,
    workerName: `${os.hostname()}/${process.pid}`,
    transcription: transcriptionSettings(env, read),
    writing: writingSettings(env, read),
    media: mediaTools(env),
  };
  for (const [key, file] of [['FFMPEG_PATH', config.media.ffmpeg], ['FFPROBE_PATH', config.media.ffprobe]] as const) {
    if (!existsSync(file)) read.problem(`${key}: ${file} does not exist (scripts/ensure-ffmpeg.sh installs Debian's ffmpeg)`);
  }
  if (config.writing.promptsDir) {
    if (!existsSync(config.writing.promptsDir)) read.problem(`WRITING_PROMPTS_DIR: ${config.writing.promptsDir} does not exist`);
    else for (const problem of promptProblems(config.writing.promptsDir)) read.problem(problem);
  }
  read.check();
  return config;
}

/**
 * The binaries the media stages run: ffmpeg and ffprobe, Debian's (scripts/ensure-ffmpeg.sh, the
 * worker image) or FFMPEG_PATH and FFPROBE_PATH; and the face detector for speaker framing,
 * Debian's python3 with python3-opencv and the Haar cascade from opencv-data, or
 * FACE_DETECTOR_PYTHON and FACE_CASCADE (missing, it is skipped: clips keep the whole picture).
 * loadWorkerConfig checks them; the test helpers run the same binaries with these defaults.
 */
export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  python: string;
  faceCascade: string;
}

export function mediaTools(env: NodeJS.ProcessEnv = process.env): MediaTools {
  return {
    ffmpeg: env.FFMPEG_PATH || '/usr/bin/ffmpeg',
    ffprobe: env.FFPROBE_PATH || '/usr/bin/ffprobe',
    python: env.FACE_DETECTOR_PYTHON || '/usr/bin/python3',
    faceCascade: env.FACE_CASCADE || '/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml',
  };
}
