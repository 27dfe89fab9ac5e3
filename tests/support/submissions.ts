// Episode files and submission logs for admin tests: the file uploaded to Storage as its owner,
// the log written as the service side writes it (submit_episode's rows, without its gating).
import type { SupabaseClient } from '@supabase/supabase-js';
import { anonClient, withDb } from './stack.ts';
import type { TestUser } from './users.ts';

/** A signed-in supabase-js client for `user`, and its access token. */
export async function signIn(user: TestUser) {
  const client = anonClient();
  const { data, error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error || !data.session) throw new Error(`could not sign in ${user.email}: ${error?.message}`);
  return { client, token: data.session.access_token };
}

/**
 * Opens an upload of `body` to `path` of bucket `episodes` as the signed-in `client` (as POST
 * /api/objects/upload does: Storage admits only opened uploads there), then uploads it.
 */
export async function uploadEpisodeObject(client: SupabaseClient, path: string, body: Blob | Buffer): Promise<void> {
  const bytes = body instanceof Blob ? body.size : body.byteLength;
  const opened = await client.rpc('open_episode_upload', { name: path, bytes });
  if (opened.error) throw new Error(`could not open the upload of ${path}: ${opened.error.message}`);
  const { error } = await client.storage.from('episodes').upload(path, body, { contentType: 'video/mp4' });
  if (error) throw new Error(`could not upload ${path}: ${error.message}`);
}

/** Uploads a small MP4 to the user's folder of bucket `episodes`; answers its path. */
export async function uploadEpisodeFile(user: TestUser, name: string, bytes = 2 * 1024 * 1024 + 5243): Promise<string> {
  const { client } = await signIn(user);
  const path = `${user.id}/uploads/${name}`;
  await uploadEpisodeObject(client, path, new Blob([new Uint8Array(bytes)], { type: 'video/mp4' }));
  return path;
}

/**
 * Marks episode files as the api's MP4 byte check does (private.checked_episode_files), so
 * rpc/submit_episode takes them: for tests of what comes after a submission (the worker's own
 * defences against a file that is no video included), not of the check.
 */
export async function markEpisodeFilesChecked(paths: string[]): Promise<void> {
  await withDb((db) =>
    db.query(
      `insert into private.checked_episode_files (object_id, version)
       select id, version from storage.objects where bucket_id = 'episodes' and name = any($1)`,
      [paths],
    ),
  );
}

export interface LogFixture {
  status?: string;
  submittedAt?: Date;
  parameters?: Record<string, unknown>;
}

/** A submission log (and its outbox row) for `user` with `files`; answers the log id. */
export async function createSubmissionLog(user: TestUser, files: string[], fixture: LogFixture = {}): Promise<string> {
  return withDb(async (db) => {
    const { rows } = await db.query(
      `insert into public.submission_logs (user_id, user_email, status, object_storage_files, submission_parameters, submitted_at)
       values ($1, $2, $3, $4, $5, $6) returning id`,
      [
        user.id,
        user.email,
        fixture.status ?? 'submitted',
        files,
        fixture.parameters ?? {},
        fixture.submittedAt ?? new Date(),
      ],
    );
    const id = rows[0].id as string;
    await db.query(`insert into public.webhook_deliveries (submission_log_id, payload) values ($1, $2)`, [
      id,
      { event: 'episode.submitted', submissionLogId: id },
    ]);
    return id;
  });
}
