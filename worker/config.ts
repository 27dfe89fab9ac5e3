// The worker's settings, from its environment (docs/deploy.md lists them).
import os from 'node:os';
import path from 'node:path';
import { PROVIDERS, isOAuthProviderId, type OAuthProviderId } from '../supabase/functions/_shared/domain/connection-status.ts';
import { oauthProviderConfigFromEnv, type OAuthProviderConfig } from '../supabase/functions/_shared/domain/oauth-token-endpoint.ts';
import type { EncodeSettings } from './media/render.ts';

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
  /** GET /health on this port (worker/health.ts); null: no health server. */
  healthPort: number | null;
  /** This process, as recorded on the rows it works on. */
  workerName: string;
}

const GOOGLE_API = 'https://www.googleapis.com';

function int(env: NodeJS.ProcessEnv, key: string, fallback: number, min = 1): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${key} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function required(env: NodeJS.ProcessEnv, key: string): string {
  const value = env[key];
  if (!value) throw new Error(`${key} is required`);
  return value;
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

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return {
    databaseUrl: required(env, 'WORKER_DATABASE_URL'),
    supabaseUrl: required(env, 'SUPABASE_URL').replace(/\/$/, ''),
    serviceRoleKey: required(env, 'SUPABASE_SERVICE_ROLE_KEY'),
    tokenKeyring: required(env, 'TOKEN_ENCRYPTION_KEYS'),
    oauthClients: oauthClients(env),
    // One setting switches Drive and YouTube between the local sandbox and Google itself.
    googleApiBase: (env.GOOGLE_API_BASE || GOOGLE_API).replace(/\/$/, ''),
    xApiBase: (env.X_API_BASE || 'https://api.x.com').replace(/\/$/, ''),
    linkedinApiBase: (env.LINKEDIN_API_BASE || 'https://api.linkedin.com').replace(/\/$/, ''),
    linkedinVersion: env.LINKEDIN_API_VERSION || '202505',
    postRetrySeconds: int(env, 'WORKER_POST_RETRY_SECONDS', 300),
    concurrency: int(env, 'WORKER_CONCURRENCY', 1),
    tempDir: env.WORKER_TEMP_DIR || path.join(os.tmpdir(), 'castloop-worker'),
    heartbeatSeconds: int(env, 'WORKER_HEARTBEAT_SECONDS', 30, 10),
    superviseSeconds: int(env, 'WORKER_SUPERVISE_SECONDS', 30),
    feedIntervalMs: int(env, 'WORKER_FEED_INTERVAL_MS', 5000, 100),
    jobsPerSubscriber: int(env, 'WORKER_JOBS_PER_SUBSCRIBER', 1),
    retryLimit: int(env, 'WORKER_RETRY_LIMIT', 3, 0),
    retryDelaySeconds: int(env, 'WORKER_RETRY_DELAY_SECONDS', 30, 0),
    encode: {
      preset: env.WORKER_X264_PRESET || 'veryfast',
      crf: int(env, 'WORKER_X264_CRF', 21),
      clipHeight: int(env, 'WORKER_CLIP_HEIGHT', 1920, 16),
    },
    healthPort: env.WORKER_HEALTH_PORT ? int(env, 'WORKER_HEALTH_PORT', 0) : null,
    workerName: `${os.hostname()}/${process.pid}`,
  };
}

/**
 * ffmpeg and ffprobe: Debian's (scripts/ensure-ffmpeg.sh, the worker image), or FFMPEG_PATH and
 * FFPROBE_PATH. Read apart from loadWorkerConfig because the test helpers run the same binaries.
 */
export function mediaBinaries(env: NodeJS.ProcessEnv = process.env): { ffmpeg: string; ffprobe: string } {
  return { ffmpeg: env.FFMPEG_PATH || '/usr/bin/ffmpeg', ffprobe: env.FFPROBE_PATH || '/usr/bin/ffprobe' };
}
