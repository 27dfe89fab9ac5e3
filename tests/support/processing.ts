// The built-in worker's tests: a subscriber ready to submit (brand assets, Drive connected), a
// submission, waiting for the worker's outcome, and what the Google sandbox holds.
import { createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import type { OutputRecord } from '../../worker/store.ts';
import type { Fixtures } from './media.ts';
import { config, withDb } from './stack.ts';
import { signIn } from './submissions.ts';
import { createUser, storeOAuthTokens, type TestUser } from './users.ts';

/** What the worker records of each delivered file (worker/store.ts), the Drive id included. */
export type Output = OutputRecord & { driveFileId: string };

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
}

/** A subscriber who may submit, with brand assets, Google Drive (and optionally YouTube) connected. */
export async function readySubscriber(
  media: Fixtures,
  tier: string,
  options: { youtube?: boolean; postAutomatically?: boolean } = {},
) {
  const user = await createUser('onboarded', { tier });
  const { client } = await signIn(user);
  const token = `sandbox-google-${user.id}`;
  const upload = async (bucket: string, objectPath: string, file: string, contentType: string) => {
    const { error } = await client.storage.from(bucket).upload(objectPath, readFileSync(file), { contentType });
    if (error) throw new Error(`upload ${objectPath}: ${error.message}`);
    return objectPath;
  };
  const assets = {
    video_intro_path: await upload('brand-assets', `${user.id}/videoIntro/intro.mp4`, media.intro, 'video/mp4'),
    video_outro_path: await upload('brand-assets', `${user.id}/videoOutro/outro.mp4`, media.outro, 'video/mp4'),
    clip_intro_path: await upload('brand-assets', `${user.id}/clipIntro/intro.mp4`, media.clipIntro, 'video/mp4'),
    clip_outro_path: await upload('brand-assets', `${user.id}/clipOutro/outro.mp4`, media.clipOutro, 'video/mp4'),
    logo_path: await upload('brand-assets', `${user.id}/logo/logo.png`, media.logo, 'image/png'),
  };
  const { error } = await client
    .from('profiles')
    .update({
      ...assets,
      brand_color_primary: '112233',
      brand_color_secondary: '445566',
      brand_color_tertiary: '778899',
      post_automatically: options.postAutomatically ?? false,
    })
    .eq('id', user.id);
  if (error) throw new Error(`profile: ${error.message}`);
  await withDb(async (db) => {
    await db.query(`update public.profiles set hosting_ready_at = now() - interval '1 day' where id = $1`, [user.id]);
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

/** Uploads `file` as the subscriber's episode and submits it. */
export async function submit(client: SupabaseClient, user: TestUser, options: Record<string, unknown>, file: string) {
  const objectPath = `${user.id}/uploads/episode-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.mp4`;
  const { error: uploadError } = await client.storage
    .from('episodes')
    .upload(objectPath, readFileSync(file), { contentType: 'video/mp4' });
  if (uploadError) throw new Error(`upload: ${uploadError.message}`);
  const { data, error } = await client.rpc('submit_episode', {
    files: [objectPath],
    options: { title: 'Test Show 12', ...options },
  });
  if (error) throw new Error(`submit_episode: ${error.message}`);
  return data as { id: string; submissionLogId: string };
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
