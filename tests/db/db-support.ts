// Helpers for database tests: fixtures written as `postgres`, and statements run as a real
// API role (anon, or authenticated with JWT claims) the way PostgREST runs them.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type pg from 'pg';
import { config, uniqueEmail, withDb } from '../support/stack.ts';

export { withDb };

/** Who runs a statement: the anon key, or a signed-in user (optionally an administrator, as the
 * token's claim says, and in a named Auth session). */
export type Actor = 'anon' | { id: string; admin?: boolean; email?: string; sessionId?: string };

export function claimsOf(actor: Actor): Record<string, unknown> {
  if (actor === 'anon') return { role: 'anon' };
  return {
    sub: actor.id,
    role: 'authenticated',
    aud: 'authenticated',
    email: actor.email,
    session_id: actor.sessionId,
    app_metadata: actor.admin
      ? { provider: 'email', providers: ['email'], role: 'admin' }
      : { provider: 'email', providers: ['email'] },
  };
}

/** A JWT as local Auth would sign it, for requests through the gateway. */
export function jwtFor(actor: Actor): Promise<string> {
  return new SignJWT(claimsOf(actor))
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(config.jwtSecret));
}

/** Runs `work` in a transaction that is always rolled back. */
export async function inRolledBackTx<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  return withDb(async (db) => {
    await db.query('begin');
    try {
      return await work(db);
    } finally {
      await db.query('rollback');
    }
  });
}

export interface Outcome {
  code?: string;
  message?: string;
  detail?: string;
  rowCount?: number;
  rows?: Record<string, unknown>[];
}

/**
 * Runs one statement as `actor` inside the caller's open transaction. With `keep` its effects
 * stay; otherwise they are undone. Errors are returned, not thrown.
 */
export async function runAs(
  db: pg.Client,
  actor: Actor,
  sql: string,
  params: unknown[] = [],
  keep = false,
): Promise<Outcome> {
  await db.query('savepoint act');
  let outcome: Outcome;
  try {
    await db.query(`set local role ${actor === 'anon' ? 'anon' : 'authenticated'}`);
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claimsOf(actor))]);
    const result = await db.query(sql, params);
    outcome = { rowCount: result.rowCount ?? 0, rows: result.rows };
  } catch (error) {
    const e = error as { code?: string; message?: string; detail?: string };
    outcome = { code: e.code, message: e.message, detail: e.detail };
    await db.query('rollback to savepoint act');
    await db.query('release savepoint act');
    return outcome;
  }
  if (keep) {
    await db.query('release savepoint act');
    await db.query(`reset role`);
    await db.query(`select set_config('request.jwt.claims', '', true)`);
  } else {
    await db.query('rollback to savepoint act');
    await db.query('release savepoint act');
  }
  return outcome;
}

/** Like runAs, but throws on error and returns the rows. */
export async function queryAs<T = Record<string, unknown>>(
  db: pg.Client,
  actor: Actor,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const outcome = await runAs(db, actor, sql, params, true);
  if (outcome.code) throw new Error(`${outcome.code}: ${outcome.message} (${outcome.detail ?? ''})`);
  return outcome.rows as T[];
}

// ---------------------------------------------------------------- fixtures (as postgres)

export async function createUser(
  db: pg.Client,
  options: { email?: string; firstName?: string; lastName?: string; admin?: boolean } = {},
): Promise<{ id: string; email: string; admin?: boolean }> {
  const id = randomUUID();
  const email = options.email ?? uniqueEmail('db');
  await db.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, '', now(), $3, $4, now(), now())`,
    [
      id,
      email,
      JSON.stringify({ provider: 'email', providers: ['email'], ...(options.admin ? { role: 'admin' } : {}) }),
      JSON.stringify({ first_name: options.firstName ?? 'Test', last_name: options.lastName ?? 'User' }),
    ],
  );
  return { id, email, admin: options.admin };
}

export async function subscribe(db: pg.Client, userId: string, tier = 'growth', status = 'active'): Promise<void> {
  await db.query(
    `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, current_period_end, last_stripe_event_at)
     values ($1::uuid, 'cus_' || replace($1::text, '-', ''), 'sub_' || replace($1::text, '-', ''), $2, $3, now() + interval '30 days', now())
     on conflict (user_id) do update set status = excluded.status, tier = excluded.tier`,
    [userId, status, tier],
  );
}

export async function setHostingReady(db: pg.Client, userId: string, ready = true): Promise<void> {
  await db.query(
    `update public.profiles set hosting_ready_at = case when $2 then now() - interval '1 day' end where id = $1`,
    [userId, ready],
  );
}

export interface GoogleOptions {
  accessToken?: boolean;
  refreshToken?: boolean;
  expiresAt?: string | null;
  connected?: boolean;
  status?: string | null;
}

export async function connectGoogle(db: pg.Client, userId: string, options: GoogleOptions = {}): Promise<string> {
  const { rows } = await db.query(
    `insert into public.oauth_connections (user_id, provider, connected, status, account_label, expires_at)
     values ($1, 'google', $2, $3, 'drive@example.com', $4)
     on conflict (user_id, provider) do update set connected = excluded.connected, status = excluded.status, expires_at = excluded.expires_at
     returning id`,
    [
      userId,
      options.connected ?? true,
      options.status ?? null,
      options.expiresAt === undefined ? new Date(Date.now() + 3600_000).toISOString() : options.expiresAt,
    ],
  );
  const connectionId = rows[0].id as string;
  await db.query(
    `insert into private.oauth_tokens (connection_id, user_id, access_token_encrypted, refresh_token_encrypted, token_type)
     values ($1, $2, $3, $4, 'Bearer')
     on conflict (connection_id) do update set access_token_encrypted = excluded.access_token_encrypted, refresh_token_encrypted = excluded.refresh_token_encrypted`,
    [
      connectionId,
      userId,
      options.accessToken === false ? null : 'enc:access',
      options.refreshToken === false ? null : 'enc:refresh',
    ],
  );
  return connectionId;
}

export async function addObject(db: pg.Client, bucket: string, name: string, mimetype?: string): Promise<void> {
  await db.query(
    `insert into storage.objects (bucket_id, name, owner_id, metadata) values ($1, $2, split_part($2, '/', 1), $3)`,
    [bucket, name, mimetype ? JSON.stringify({ mimetype, size: 1024 }) : null],
  );
}

/**
 * An episode file as POST /api/episodes/submit-direct-storage leaves it once its bytes proved
 * MP4 (private.checked_episode_files), for tests of submit_episode()'s other rules in SQL.
 */
export async function markEpisodeFileChecked(db: pg.Client, name: string, durationSeconds: number | null = null): Promise<void> {
  await db.query(
    `insert into private.checked_episode_files (object_id, version, duration_seconds)
     select id, version, $2 from storage.objects where bucket_id = 'episodes' and name = $1`,
    [name, durationSeconds],
  );
}

/** An MP4-typed object in the `episodes` bucket, checked as the api checks it (its length read, or unknown). */
export async function addCheckedEpisodeFile(db: pg.Client, name: string, durationSeconds: number | null = null): Promise<void> {
  await addObject(db, 'episodes', name, 'video/mp4');
  await markEpisodeFileChecked(db, name, durationSeconds);
}

export async function addEpisode(
  db: pg.Client,
  userId: string,
  submittedAt: string | Date = new Date(),
): Promise<string> {
  const { rows } = await db.query(
    `insert into public.episodes (user_id, title, files, submitted_at) values ($1::uuid, 'Old episode', array[$1::text || '/old.mp4'], $2) returning id`,
    [userId, submittedAt],
  );
  return rows[0].id as string;
}

/**
 * Gives an episode a submission log (the subscriber's own, at `loggedAt`) and the built-in
 * worker's processing row in `status`; returns the log's id.
 */
export async function setProcessing(
  db: pg.Client,
  episodeId: string,
  status: 'queued' | 'processing' | 'delivered' | 'failed',
  loggedAt: string | Date = new Date(),
): Promise<string> {
  const { rows } = await db.query(
    `insert into public.submission_logs (episode_id, user_id, user_email, object_storage_files, submitted_at)
     select e.id, e.user_id, 'episode@example.test', e.files, $2 from public.episodes e where e.id = $1
     returning id`,
    [episodeId, loggedAt],
  );
  const logId = rows[0].id as string;
  await db.query(
    `insert into public.episode_processing (submission_log_id, episode_id, user_id, status, failure_reason)
     select $1, e.id, e.user_id, $3, case when $3 = 'failed' then 'The start time 9:05:07 is past the end of the video.' end
       from public.episodes e where e.id = $2
     on conflict (submission_log_id) do update set status = excluded.status, failure_reason = excluded.failure_reason`,
    [logId, episodeId, status],
  );
  return logId;
}

/** A subscriber who may submit: active plan, Google Drive connected, hosting ready. */
export async function createReadySubscriber(db: pg.Client, tier = 'growth'): Promise<{ id: string; email: string }> {
  const user = await createUser(db);
  await subscribe(db, user.id, tier);
  await connectGoogle(db, user.id);
  await setHostingReady(db, user.id);
  return user;
}

export async function countRows(
  db: pg.Client,
  userId: string,
): Promise<{ episodes: number; logs: number; deliveries: number }> {
  const { rows } = await db.query(
    `select (select count(*)::int from public.episodes where user_id = $1) as episodes,
            (select count(*)::int from public.submission_logs where user_id = $1) as logs,
            (select count(*)::int from public.webhook_deliveries d join public.submission_logs l on l.id = d.submission_log_id where l.user_id = $1) as deliveries`,
    [userId],
  );
  return rows[0];
}
