// The built-in worker's tests: a subscriber ready to submit (brand assets, Drive connected), a
// submission, waiting for the worker's outcome, and what the Google sandbox holds.
import { createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import type { StoredOutput } from '../../supabase/functions/_shared/domain/episode-page.ts';
import type { Fixtures } from './media.ts';
import { config, withDb } from './stack.ts';
import { markEpisodeFilesChecked, signIn, uploadEpisodeObject } from './submissions.ts';
import { createUser, storeOAuthTokens, type TestUser } from './users.ts';

/** What the worker records of each delivered file (episode_processing.outputs), the Drive id included. */
export type Output = StoredOutput & { driveFileId: string };

export interface ProcessingRow {
  id: string;
  status: string;
  stage: string | null;
  progress: number;
  attempts: number;
  failure_reason: string | null;
  worker: string | null;
  drive_folder_id: string | null;
  outputs: Output[];
  started_at: string | null;
}

interface SandboxFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  size: number;
  owner: string;
  webViewLink: string;
  /** When Drive received it (ISO 8601, milliseconds). */
  createdTime: string;
}

/** A podcast language the offline engine (pocketsphinx, US English) does not transcribe. */
export const NOT_TRANSCRIBED = 'de';

/**
 * A subscriber who may submit, with brand assets, Google Drive (and optionally YouTube) connected;
 * `language`: the podcast's language (the test accounts' own otherwise).
 */
export async function readySubscriber(
  media: Fixtures,
  tier: string,
  options: { youtube?: boolean; postAutomatically?: boolean; language?: string } = {},
) {
  const user = await createUser('onboarded', { tier });
  const { client, token: accessToken } = await signIn(user);
  const token = `sandbox-google-${user.id}`;
  // Brand assets go in the only way there is: the api checks their bytes and sets their paths.
  const form = new FormData();
  form.append(
    'fields',
    JSON.stringify({ brandColorPrimary: '112233', brandColorSecondary: '445566', brandColorTertiary: '778899', postAutomatically: options.postAutomatically ?? false }),
  );
  const assets: Array<[string, string, string, string]> = [
    ['videoIntro', media.intro, 'intro.mp4', 'video/mp4'],
    ['videoOutro', media.outro, 'outro.mp4', 'video/mp4'],
    ['clipIntro', media.clipIntro, 'intro.mp4', 'video/mp4'],
    ['clipOutro', media.clipOutro, 'outro.mp4', 'video/mp4'],
    ['logo', media.logo, 'logo.png', 'image/png'],
  ];
  for (const [slot, file, name, type] of assets) form.append(slot, new Blob([new Uint8Array(readFileSync(file))], { type }), name);
  const saved = await fetch(`${config.urls.api}/functions/v1/api/onboarding/submit-with-files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
    body: form,
  });
  if (!saved.ok) throw new Error(`brand assets: ${saved.status} ${await saved.text()}`);
  await withDb(async (db) => {
    await db.query(
      // Posting tests release at delivery (no review window); the review itself is tests/db/review.test.ts.
      `update public.profiles set hosting_ready_at = now() - interval '1 day', podcast_language = coalesce($2, podcast_language), review_window = 'none' where id = $1`,
      [user.id, options.language ?? null],
    );
    for (const provider of options.youtube ? ['google', 'youtube'] : ['google']) {
      const { rows } = await db.query(
        `insert into public.oauth_connections (user_id, provider, connected, status, account_label, expires_at)
         values ($1, $2, true, 'connected', 'podcaster@example.com', now() + interval '1 hour') returning id`,
        [user.id, provider],
      );
      await storeOAuthTokens(db, rows[0].id, user.id, `${token}-${provider}`, 'refresh');
    }
  });
  return { user, client, driveToken: `${token}-google`, youtubeToken: `${token}-youtube` };
}

/** Uploads `file` as the subscriber's episode and submits it (MP4 or not: the worker is under test). */
export async function submit(client: SupabaseClient, user: TestUser, options: Record<string, unknown>, file: string) {
  const objectPath = `${user.id}/uploads/episode-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.mp4`;
  await uploadEpisodeObject(client, objectPath, readFileSync(file));
  await markEpisodeFilesChecked([objectPath]);
  const { data, error } = await client.rpc('submit_episode', {
    files: [objectPath],
    options: { title: 'Test Show 12', ...options },
  });
  if (error) throw new Error(`submit_episode: ${error.message}`);
  return data as { id: string; submissionLogId: string };
}

/**
 * The subscriber's posting hour comes: the episode's released clip posts move earlier together,
 * the first clip's to now (the database's clock), the days between clips kept. (A released blog
 * post is due at once already.)
 */
export async function postingHourComes(processingId: string): Promise<void> {
  await withDb((db) =>
    db.query(
      `update public.scheduled_posts s set scheduled_for = s.scheduled_for - (f.first - now())
         from (select min(scheduled_for) as first from public.scheduled_posts
                where episode_processing_id = $1 and status = 'scheduled' and kind = 'clip') f
        where s.episode_processing_id = $1 and s.status = 'scheduled' and s.kind = 'clip'`,
      [processingId],
    ),
  );
}

export const finished = (r: ProcessingRow) => r.status === 'delivered' || r.status === 'failed';

/** The processing row as its owner reads it (through RLS), once `done` says so. */
export async function waitFor(
  client: SupabaseClient,
  episodeId: string,
  done: (row: ProcessingRow) => boolean,
  timeoutMs = 150_000,
): Promise<ProcessingRow> {
  const deadline = Date.now() + timeoutMs;
  let last: ProcessingRow | undefined;
  while (Date.now() < deadline) {
    const { data, error } = await client
      .from('episode_processing')
      .select('*')
      .eq('episode_id', episodeId)
      .maybeSingle();
    if (error) throw new Error(error.message);
    last = (data as ProcessingRow | null) ?? undefined;
    if (last && done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`timed out; last row: ${JSON.stringify(last)}`);
}

export async function sandboxFiles(): Promise<SandboxFile[]> {
  const res = await fetch(`${config.urls.sandbox}/_sandbox/google`);
  return ((await res.json()) as { files: SandboxFile[] }).files;
}

/**
 * Downloads a delivered file from the sandbox's Drive into `dir`, on a connection of its own: the
 * checks between downloads block the event loop (spawnSync) long enough for the server to close
 * an idle kept-alive socket, which fetch would then reuse ("other side closed").
 */
export async function downloadFromDrive(dir: string, fileId: string, token: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http
      .get(
        `${config.urls.sandbox}/drive/v3/files/${fileId}?alt=media`,
        { agent: false, headers: { authorization: `Bearer ${token}` } },
        resolve,
      )
      .on('error', reject);
  });
  expect(res.statusCode).toBe(200);
  await pipeline(res, createWriteStream(file));
  return file;
}
