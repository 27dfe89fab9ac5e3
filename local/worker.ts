// Starts the worker (worker/main.ts, its production entry point) as a child process of the local
// stack (npm start, npm test), pointed at the stack's database, Storage and Google sandbox.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, type StackConfig } from './config.ts';
import { spawnService, type ChildService } from './lib/process.ts';
import { oauthFunctionEnv } from './sandbox/oauth/settings.ts';
import { SANDBOX_OPENAI_API_KEY } from './sandbox/openai/index.ts';

/**
 * The writing engine the local worker uses. The test stack's always writes with this stack's
 * sandbox (OpenAI's chat-completions shapes, local/sandbox/openai/chat.ts), so `npm test` runs
 * the whole chat path offline, fallback included; `npm start` writes offline (extractive) unless
 * .env says WRITING_ENGINE=openai: then with .env's WRITING_API_KEY at WRITING_BASE_URL (OpenAI
 * when unset), or the sandbox without a key.
 */
export function writingEnv(config: StackConfig): Record<string, string> {
  const env = config.env;
  const sandbox = {
    WRITING_ENGINE: 'openai',
    WRITING_API_KEY: SANDBOX_OPENAI_API_KEY,
    WRITING_BASE_URL: `${config.urls.sandbox}/v1`,
    WRITING_MODEL: 'gpt-4o-mini',
  };
  if (config.profile === 'test') {
    // A timeout is waited for twice before the offline engine writes: short in the tests.
    return { ...sandbox, WRITING_TIMEOUT_SECONDS: '5', WRITING_PRICE_INPUT_PER_MILLION: '0.15', WRITING_PRICE_OUTPUT_PER_MILLION: '0.6' };
  }
  // .env's own writing settings (model, prices, context, prompts) reach the worker as they are.
  const own = Object.fromEntries(Object.entries(env).filter(([key, value]) => key.startsWith('WRITING_') && value !== ''));
  return env.WRITING_ENGINE === 'openai' && !env.WRITING_API_KEY ? { ...own, ...sandbox } : own;
}

/** How a worker process starts, from the repository root: here and in the image (worker/Dockerfile). */
export const WORKER_ENTRY = ['--import', 'tsx', 'worker/main.ts'];

export function workerEnv(config: StackConfig): Record<string, string> {
  const env = config.env;
  return {
    WORKER_DATABASE_URL: config.urls.db,
    SUPABASE_URL: config.urls.api,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    // The same keyring and OAuth clients (for refreshing tokens) as the functions,
    // and the sandbox origin the WordPress sites live on.
    ...Object.fromEntries(
      Object.entries(oauthFunctionEnv(config)).filter(([key]) => key === 'TOKEN_ENCRYPTION_KEYS' || key === 'WORDPRESS_SANDBOX_ORIGINS' || key.startsWith('OAUTH_')),
    ),
    // .env may point GOOGLE_API_BASE at Google itself; otherwise this stack's sandbox.
    GOOGLE_API_BASE: env.GOOGLE_API_BASE || config.urls.sandbox,
    X_API_BASE: env.X_API_BASE || config.urls.sandbox,
    LINKEDIN_API_BASE: env.LINKEDIN_API_BASE || config.urls.sandbox,
    WORKER_TEMP_DIR: path.join(config.dataDir, 'worker'),
    // TRANSCRIPTION_ENGINE=openai in .env: OpenAI's API itself when .env has its key, else the sandbox's.
    ...(env.TRANSCRIPTION_ENGINE
      ? {
          TRANSCRIPTION_ENGINE: env.TRANSCRIPTION_ENGINE,
          OPENAI_API_KEY: env.OPENAI_API_KEY || SANDBOX_OPENAI_API_KEY,
          OPENAI_BASE_URL: env.OPENAI_API_KEY ? (env.OPENAI_BASE_URL ?? '') : `${config.urls.sandbox}/v1`,
        }
      : {}),
    ...writingEnv(config),
    ...(config.profile === 'test'
      ? {
          // Small, fast renders and quick crash recovery for the test suite.
          WORKER_X264_PRESET: 'ultrafast',
          WORKER_X264_CRF: '30',
          WORKER_CLIP_HEIGHT: '320',
          // The fixtures are a minute or so: a re-encoded episode still goes out in several pieces.
          WORKER_SEGMENT_SECONDS: '30',
          WORKER_HEARTBEAT_SECONDS: '10',
          WORKER_SUPERVISE_SECONDS: '2',
          WORKER_FEED_INTERVAL_MS: '500',
          WORKER_RETRY_DELAY_SECONDS: '1',
          WORKER_POST_RETRY_SECONDS: '1',
          // Tests run offline: captions in the bundled fallback font (worker/media/fonts.ts).
          WORKER_FONT_REGISTRY: 'off',
          // The suite's worker shares 2 cores with two other test lanes: there a second recogniser
          // only adds its model load (the spoken test took 30 s in pieces against 25 s in one
          // with both cores busy). Pieces are the bench's and production's (docs/decisions.md).
          POCKETSPHINX_PARALLEL: '1',
        }
      : {}),
  };
}

/**
 * Debian's ffmpeg, installed when missing and we may (as root, like the browser for the tests),
 * else a clear message (scripts/ensure-ffmpeg.sh).
 */
async function ensureFfmpeg(): Promise<void> {
  try {
    await promisify(execFile)('bash', [path.join(repoRoot, 'scripts', 'ensure-ffmpeg.sh')]);
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(stderr?.trim() || (error as Error).message, { cause: error });
  }
}

export async function startWorkerProcess(
  config: StackConfig,
  onLine?: (line: string) => void,
  /** Settings over the stack's (benchmarks use production encoding). */
  extraEnv: Record<string, string> = {},
): Promise<ChildService> {
  await ensureFfmpeg();
  let ready = false;
  return spawnService({
    name: 'Worker',
    command: process.execPath,
    args: WORKER_ENTRY.map((arg) => (arg.startsWith('worker/') ? path.join(repoRoot, arg) : arg)),
    env: { ...workerEnv(config), ...extraEnv },
    ready: async () => ready,
    readyTimeoutMs: 60_000,
    onLine: (line) => {
      if (line.includes('worker ready')) ready = true;
      onLine?.(line);
    },
  });
}
