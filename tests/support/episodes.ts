// Episode helpers for API, delivery and browser tests: signed-in calls to the `api` function,
// small MP4-typed files in the caller's folder, the outbox worker and the automation receiver.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { anonClient, config, withDb } from './stack.ts';
import { createUser, type TestUser, type UserOptions } from './users.ts';

export const apiUrl = (path: string) => `${config.urls.api}/functions/v1/api/${path}`;

export async function tokenOf(user: TestUser): Promise<string> {
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return data.session!.access_token;
}

export async function callApi(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(apiUrl(path), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export interface Submitter extends TestUser {
  token: string;
}

/** An onboarded subscriber with Drive connected and hosting ready: allowed to submit. */
export async function readySubmitter(options: UserOptions = {}): Promise<Submitter> {
  const user = await createUser('onboarded', { drive: 'connected', hostingReady: true, ...options });
  return { ...user, token: await tokenOf(user) };
}

export interface UploadedFile {
  path: string;
  bytes: Buffer;
  sha256: string;
}

/** The first bytes of an MP4 (its `ftyp` box): submissions are checked to start with one. */
export const MP4_SIGNATURE = Buffer.from([0, 0, 0, 16, ...Buffer.from('ftypisom'), 0, 0, 2, 0]);

/** Bytes that pass as an MP4 on submission: its signature, then `size` random bytes in all. */
export function mp4Like(size: number): Buffer<ArrayBuffer> {
  return Buffer.concat([MP4_SIGNATURE, randomBytes(Math.max(0, size - MP4_SIGNATURE.length))]);
}

/** Uploads `size` bytes (an MP4 signature, then random) as video/mp4 into the user's folder of the `episodes` bucket. */
export async function uploadEpisodeFile(
  owner: { id: string; token: string },
  size = 64 * 1024,
  name = 'episode.mp4',
  bytes: Buffer<ArrayBuffer> = mp4Like(size),
): Promise<UploadedFile> {
  const path = `${owner.id}/${randomUUID()}/${name}`;
  // Storage takes only uploads the subscriber opened (POST /api/objects/upload does it; here the RPC, to keep the name).
  const opened = await fetch(`${config.urls.api}/rest/v1/rpc/open_episode_upload`, {
    method: 'POST',
    headers: { apikey: config.anonKey, authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: path, bytes: Math.max(1, bytes.byteLength) }),
  });
  if (!opened.ok) throw new Error(`opening the upload failed: ${opened.status} ${await opened.text()}`);
  const res = await fetch(`${config.urls.api}/storage/v1/object/episodes/${path}`, {
    method: 'POST',
    headers: { apikey: config.anonKey, authorization: `Bearer ${owner.token}`, 'content-type': 'video/mp4' },
    body: bytes,
  });
  if (!res.ok) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return { path, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

export async function submitEpisode(owner: Submitter, files: string[], episodeData: Record<string, unknown> = {}) {
  return callApi('POST', 'episodes/submit-direct-storage', owner.token, { uploadUrls: files, episodeData });
}

export async function countRows(userId: string): Promise<{ episodes: number; logs: number; deliveries: number }> {
  return withDb(async (db) => {
    const { rows } = await db.query(
      `select (select count(*) from public.episodes where user_id = $1)::int as episodes,
              (select count(*) from public.submission_logs where user_id = $1)::int as logs,
              (select count(*) from public.webhook_deliveries d join public.submission_logs l on l.id = d.submission_log_id where l.user_id = $1)::int as deliveries`,
      [userId],
    );
    return rows[0];
  });
}

/** One run of the outbox worker, called as Supabase Cron calls it. */
export async function runDeliveries(body: Record<string, unknown> = {}): Promise<{ status: number; body: Record<string, number> }> {
  const res = await fetch(`${config.urls.api}/functions/v1/deliver-submissions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${config.serviceRoleKey}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

export interface ReceivedDelivery {
  receivedAt: string;
  idempotencyKey: string | null;
  submissionLogId: string | null;
  outcome: 'accepted' | 'duplicate' | 'failed_on_purpose' | 'rejected';
  reason?: string;
  body?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the delivery's JSON as received
  files: Array<{ path: string; status: string; bytes?: number; sha256?: string }>;
}

export async function receivedFor(submissionLogId: string): Promise<ReceivedDelivery[]> {
  const res = await fetch(`${config.urls.sandbox}/_sandbox/automation/deliveries`);
  const { deliveries } = (await res.json()) as { deliveries: ReceivedDelivery[] };
  return deliveries.filter((d) => d.submissionLogId === submissionLogId);
}

export async function setReceiverBehaviour(behaviour: { failNext?: number; delayMs?: number; submissionLogId?: string | null }): Promise<void> {
  const res = await fetch(`${config.urls.sandbox}/_sandbox/automation/behaviour`, { method: 'POST', body: JSON.stringify(behaviour) });
  if (!res.ok) throw new Error(`receiver behaviour: ${res.status}`);
}

/** Waits until `check` returns a value (not undefined/false). */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Which automation takes new submissions: the built-in worker or the outbox's webhook. */
export type Automation = 'builtin' | 'webhook';

export async function setActiveAutomation(automation: Automation): Promise<void> {
  await withDb((db) => db.query('update private.automation_settings set automation = $1', [automation]));
}

/**
 * Makes `automation` the active one for the calling test file (files run one at a time) and
 * restores the default, 'builtin', after it.
 */
export function useAutomation(automation: Automation): void {
  beforeAll(() => setActiveAutomation(automation));
  afterAll(() => setActiveAutomation('builtin'));
}
