// The processing worker and the subscriber's connections, with real grants from the OAuth
// sandbox: a Drive token about to expire is refreshed on demand (and stored), a revoked grant
// fails the submission with the reconnect reason, and clips are posted to every connected
// platform, once each. Renders a 24-second episode, not 2 minutes.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthFunctionEnv } from '../../local/sandbox/oauth/index.ts';
import { databaseTokenSource } from '../../worker/platforms/access-token.ts';
import { loadWorkerConfig } from '../../worker/config.ts';
import { linkedinCommentary } from '../../worker/content/platform-text.ts';
import { currentMediaTools } from '../../worker/media/ffmpeg.ts';
import { workerEnv } from '../../local/worker.ts';
import { openToken, parseTokenKeyring } from '../../supabase/functions/_shared/domain-server/token-cipher.ts';
import { useAutomation } from '../support/episodes.ts';
import { connect, connectWordpress, sandboxGrant, type Grant } from '../support/platforms.ts';
import { makeFixtures, type Fixtures } from '../support/media.ts';
import { NOT_TRANSCRIBED, postingHourComes } from '../support/processing.ts';
import { config, withDb } from '../support/stack.ts';
import { markEpisodeFilesChecked, signIn, uploadEpisodeObject } from '../support/submissions.ts';
import { createUser, type TestUser } from '../support/users.ts';

interface ProcessingRow {
  id: string;
  status: string;
  failure_reason: string | null;
  drive_folder_id: string | null;
  outputs: { name: string; kind: string; driveFileId: string; clipId?: string }[];
}

let dir: string;
let media: Fixtures;

async function sandbox(pathname: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${config.urls.sandbox}${pathname}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}


/** A subscriber who may submit. Connections, not words: their podcast is in a language the offline engine does not transcribe. */
async function subscriber(postAutomatically = false) {
  const user = await createUser('onboarded', { tier: 'starter' });
  const { client } = await signIn(user);
  await withDb((db) =>
    db.query(
      `update public.profiles set hosting_ready_at = now() - interval '1 day', post_automatically = $2, podcast_language = $3, review_window = 'none' where id = $1`,
      [user.id, postAutomatically, NOT_TRANSCRIBED],
    ),
  );
  return { user, client };
}


async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function submit(client: SupabaseClient, user: TestUser, options: Record<string, unknown> = {}) {
  const objectPath = `${user.id}/uploads/short-${Date.now()}.mp4`;
  await uploadEpisodeObject(client, objectPath, readFileSync(media.episode));
  // Through the RPC for the title the api does not take; the file is a real MP4.
  await markEpisodeFilesChecked([objectPath]);
  const { data, error } = await client.rpc('submit_episode', {
    files: [objectPath],
    options: { title: 'Short Show', addIntroOutro: false, addLogo: false, ...options },
  });
  if (error) throw new Error(`submit_episode: ${error.message}`);
  return data as { id: string };
}

async function finished(client: SupabaseClient, episodeId: string, timeoutMs = 90_000): Promise<ProcessingRow> {
  const deadline = Date.now() + timeoutMs;
  let last: ProcessingRow | null = null;
  while (Date.now() < deadline) {
    const { data } = await client.from('episode_processing').select('*').eq('episode_id', episodeId).maybeSingle();
    last = data as ProcessingRow | null;
    if (last && (last.status === 'delivered' || last.status === 'failed')) return last;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`timed out; last row: ${JSON.stringify(last)}`);
}

async function storedConnection(connectionId: string) {
  const keyring = await parseTokenKeyring(oauthFunctionEnv(config).TOKEN_ENCRYPTION_KEYS);
  return withDb(async (db) => {
    const { rows } = await db.query(
      `select c.status, c.expires_at, t.access_token_encrypted, t.refresh_token_encrypted, t.key_id
         from public.oauth_connections c join private.oauth_tokens t on t.connection_id = c.id where c.id = $1`,
      [connectionId],
    );
    const row = rows[0];
    return {
      status: row.status as string,
      expiresAt: new Date(row.expires_at),
      accessToken: await openToken(keyring, row.access_token_encrypted, row.key_id, `${connectionId}:access`),
      hasRefreshToken: row.refresh_token_encrypted !== null,
    };
  });
}

/** The pixels of one frame's region, as [r, g, b] triples. */
function pixels(file: string, seconds: number, crop: string): [number, number, number][] {
  const out = spawnSync(currentMediaTools().ffmpeg, ['-nostdin', '-loglevel', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `crop=${crop}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 16 * 1024 * 1024 }).stdout;
  return Array.from({ length: out.length / 3 }, (_, i) => [out[3 * i], out[3 * i + 1], out[3 * i + 2]]);
}

const driveList = (token: string) => fetch(`${config.urls.sandbox}/drive/v3/files`, { headers: { authorization: `Bearer ${token}` } });

useAutomation('builtin');

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-processing-connections-'));
  // Louder at 0-7 s and 15-22 s: without words, two clips (worker/media/clip-selection.ts).
  media = makeFixtures(dir, 24, undefined, [[0, 7], [15, 22]]);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the worker and the subscriber\'s connections', () => {
  it('refreshes a Drive token that is about to expire, delivers with the new one and stores it', async () => {
    const { user, client } = await subscriber();
    const grant = await sandboxGrant('google');
    const connectionId = await connect(user, 'google', grant);
    // The provider no longer takes the stored access token: only a refresh gets Drive to answer.
    await sandbox('/oauth/_control/expire', { state: grant.state });
    expect((await driveList(grant.accessToken)).status).toBe(401);

    const episode = await submit(client, user);
    const row = await finished(client, episode.id);
    expect(row).toMatchObject({ status: 'delivered', failure_reason: null });

    // Refreshed once (the worker asks for the token before rendering and again before uploading).
    const info = await sandbox(`/oauth/_control/grant?state=${grant.state}`);
    expect(info.refreshCount).toBe(1);
    const { files } = (await sandbox('/_sandbox/google')) as unknown as { files: { id: string; parents: string[]; owner: string; name: string }[] };
    const inFolder = files.filter((f) => f.parents.includes(row.drive_folder_id as string));
    expect(inFolder.map((f) => f.name).sort()).toEqual(row.outputs.map((o) => o.name).sort());
    expect(inFolder.every((f) => f.owner === info.owner)).toBe(true);

    // The DEFAULT style burns the title in above the picture, in the brand colour that reads on
    // the primary (no brand colours set: amber #F59E0B on grey #1F2937).
    const clip = row.outputs.find((o) => o.kind === 'clip') as { driveFileId: string };
    const clipFile = path.join(dir, 'clip.mp4');
    writeFileSync(clipFile, Buffer.from(await (await fetch(`${config.urls.sandbox}/drive/v3/files/${clip.driveFileId}?alt=media`, { headers: { authorization: `Bearer ${(await storedConnection(connectionId)).accessToken}` } })).arrayBuffer()));
    const above = pixels(clipFile, 2, '180:100:0:0');
    const amber = above.filter(([r, g, b]) => r > 180 && g > 110 && g < 200 && b < 90).length;
    expect(amber).toBeGreaterThan(40);
    // Below the picture there is no caption: only the primary.
    expect(pixels(clipFile, 2, '180:90:0:225').filter(([r, g, b]) => r > 180 && g > 110 && g < 200 && b < 90).length).toBe(0);

    // The renewed token is stored (encrypted) for the next user of the connection, and works.
    const stored = await storedConnection(connectionId);
    expect(stored.accessToken).not.toBe(grant.accessToken);
    expect(stored.status).toBe('connected');
    expect(stored.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect((await driveList(stored.accessToken)).status).toBe(200);
  }, 120_000);

  it('fails the submission with the reconnect reason when the provider refuses the refresh', async () => {
    const { user, client } = await subscriber();
    const grant = await sandboxGrant('google');
    const connectionId = await connect(user, 'google', grant);
    await sandbox('/oauth/_control/revoke', { state: grant.state });

    const episode = await submit(client, user);
    const row = await finished(client, episode.id, 30_000);
    expect(row.status).toBe('failed');
    expect(row.failure_reason).toBe('Google Drive is not connected. Please reconnect your Google Drive account.');
    const stored = await storedConnection(connectionId);
    expect(stored).toMatchObject({ status: 'failed', hasRefreshToken: false });
  });

  it('refreshes a rotating grant once when several workers need it at the same moment', async () => {
    const { user } = await subscriber();
    const grant = await sandboxGrant('x');
    const connectionId = await connect(user, 'x', grant);
    const workerConfig = loadWorkerConfig(workerEnv(config));
    const pool = new pg.Pool({ connectionString: config.urls.db, max: 6 });
    try {
      // Three workers, each with its own token source, as on three machines.
      const sources = [0, 1, 2].map(() => databaseTokenSource(pool, workerConfig.tokenKeyring, workerConfig.oauthClients));
      const tokens = await Promise.all(sources.map((source) => source.accessToken(user.id, 'x')));
      expect(new Set(tokens).size).toBe(1);
      expect(tokens[0]).not.toBe(grant.accessToken);
      const info = await sandbox(`/oauth/_control/grant?state=${grant.state}`);
      expect(info.refreshCount).toBe(1);
      // X rotated the refresh token: the stored one is the new one, so the next refresh works.
      await withDb((db) => db.query(`update public.oauth_connections set expires_at = now() where id = $1`, [connectionId]));
      const next = await sources[0].accessToken(user.id, 'x');
      expect(next).not.toBe(tokens[0]);
      expect((await sandbox(`/oauth/_control/grant?state=${grant.state}`)).refreshCount).toBe(2);
      expect((await storedConnection(connectionId)).status).toBe('connected');
    } finally {
      await pool.end();
    }
  });

  it('posts the first clip to every connected platform at once, retrying a platform that fails, once each', async () => {
    const { user, client } = await subscriber(true);
    const grants = Object.fromEntries(
      await Promise.all((['google', 'youtube', 'x', 'linkedin'] as const).map(async (p) => [p, await sandboxGrant(p)] as const)),
    ) as Record<'google' | 'youtube' | 'x' | 'linkedin', Grant>;
    for (const provider of ['google', 'youtube', 'x', 'linkedin'] as const) await connect(user, provider, grants[provider], '1 hour');
    const site = `show-${user.id.slice(0, 8)}`;
    await connectWordpress(user, site);
    // X's next post fails: X is retried on its own, the other platforms are not posted again.
    await sandbox('/_sandbox/social/fail-next', { platform: 'x', count: 1 });

    const episode = await submit(client, user, { daysBetweenClips: 2 });
    const row = await finished(client, episode.id);
    expect(row.status).toBe('delivered');
    const clips = row.outputs.filter((o) => o.kind === 'clip');
    expect(clips).toHaveLength(2);
    await postingHourComes(row.id);

    type Post = { provider: string; clip_id: string; status: string; attempts: number; scheduled_for: string };
    const posts = await eventually(async () => {
      const { data } = await client.from('scheduled_posts').select('provider, clip_id, status, attempts, scheduled_for, last_error');
      const rows = (data ?? []) as Post[];
      const due = rows.filter((p) => p.clip_id === clips[0].clipId);
      return due.length === 4 && due.every((p) => p.status === 'posted') ? rows : undefined;
    });
    // One row per clip and platform (clip 2 waits its turn, 2 days on), and the full episode on YouTube.
    expect(posts.filter((p) => p.clip_id)).toHaveLength(8);
    expect(posts.filter((p) => !p.clip_id).map((p) => p.provider)).toEqual(['youtube']);
    for (const clip of clips.slice(1)) expect(posts.filter((p) => p.clip_id === clip.clipId).every((p) => p.status === 'scheduled')).toBe(true);
    const first = Object.fromEntries(posts.filter((p) => p.clip_id === clips[0].clipId).map((p) => [p.provider, p.attempts]));
    expect(first).toEqual({ youtube: 1, x: 2, linkedin: 1, wordpress: 1 });

    // What each platform received: one post each, the clip itself, under the subscriber's accounts.
    const title = clips[0].name.replace(/\.mp4$/, '');
    const owners = Object.fromEntries(
      await Promise.all((['youtube', 'x', 'linkedin'] as const).map(async (p) => [p, (await sandbox(`/oauth/_control/grant?state=${grants[p].state}`)).owner] as const)),
    );
    const { posts: social } = (await sandbox('/_sandbox/social')) as unknown as { posts: { platform: string; owner: string; text: string; mediaBytes: number; mediaSha256: string }[] };
    const mine = social.filter((p) => p.owner === owners.x || p.owner === owners.linkedin || p.owner === `wordpress:${site}`);
    // On X and LinkedIn the clip's text ends with the full episode's YouTube video (the clip's posts
    // wait for it); LinkedIn receives it as "little text", its reserved characters escaped.
    const { rows: [video] } = await withDb((db) => db.query<{ external_id: string }>(`select external_id from public.scheduled_posts where episode_processing_id = $1 and kind = 'episode' and status = 'posted'`, [row.id]));
    const linked = `${title}\n\nFull episode: https://www.youtube.com/watch?v=${video.external_id}`;
    expect(mine.map((p) => [p.platform, p.text]).sort()).toEqual([['linkedin', linkedinCommentary(linked)], ['wordpress', title], ['x', linked]]);
    const clipBytes = Buffer.from(await (await fetch(`${config.urls.sandbox}/drive/v3/files/${clips[0].driveFileId}?alt=media`, { headers: { authorization: `Bearer ${grants.google.accessToken}` } })).arrayBuffer());
    const clipHash = createHash('sha256').update(clipBytes).digest('hex');
    expect(mine.every((p) => p.mediaBytes === clipBytes.length && p.mediaSha256 === clipHash)).toBe(true);
    const { videos } = (await sandbox('/_sandbox/google')) as unknown as { videos: { owner: string; title: string }[] };
    expect(videos.filter((v) => v.owner === owners.youtube).map((v) => v.title).sort()).toEqual(['Short Show', title].sort());
  }, 120_000);

  it('stops at the next step when Google Drive is disconnected mid-job, and a retry after reconnecting reuses the pieces made', async () => {
    const { user, client } = await subscriber();
    const grant = await sandboxGrant('google');
    const connectionId = await connect(user, 'google', grant, '1 hour');
    const started = Date.now();
    const episode = await submit(client, user);
    const { data } = await client.from('episode_processing').select('id').eq('episode_id', episode.id).single();
    const first = (data as { id: string }).id;
    const pieces = (processingId: string) =>
      withDb(async (db) => (await db.query<{ reused: boolean }>(`select reused from private.processing_piece_results where processing_id = $1`, [processingId])).rows);
    // A piece is made; then the subscriber disconnects Drive.
    await eventually(async () => ((await pieces(first)).length > 0 ? true : undefined));
    await withDb((db) => db.query(`delete from public.oauth_connections where id = $1`, [connectionId]));
    const failed = await finished(client, episode.id);
    const firstSeconds = (Date.now() - started) / 1000;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'Google Drive is not connected. Please reconnect your Google Drive account.' });
    const { data: stopped } = await client.from('episode_processing').select('failure_permanent').eq('id', first).single();
    expect(stopped).toMatchObject({ failure_permanent: false });
    const made = (await pieces(first)).length;

    // Reconnected and retried: the pieces made are copied, not rendered again.
    await connect(user, 'google', grant, '1 hour');
    const token = (await client.auth.getSession()).data.session?.access_token;
    const retriedAt = Date.now();
    const retried = await fetch(`${config.urls.api}/functions/v1/api/episodes/${episode.id}/retry`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(retried.status).toBe(200);
    const row = await eventually(async () => {
      const { data: rows } = await client.from('episode_processing').select('*').eq('episode_id', episode.id).order('created_at', { ascending: false }).limit(1);
      const latest = rows?.[0] as (ProcessingRow & { id: string }) | undefined;
      return latest && latest.id !== first && (latest.status === 'delivered' || latest.status === 'failed') ? latest : undefined;
    }, 90_000);
    expect(row.status).toBe('delivered');
    const second = await pieces(row.id);
    expect(second.filter((piece) => piece.reused)).toHaveLength(made);
    expect(second.length).toBeGreaterThan(made);
    console.log(`Drive lost: first attempt stopped after ${firstSeconds.toFixed(1)} s with ${made} piece(s) made; the retry reused them and delivered in ${((Date.now() - retriedAt) / 1000).toFixed(1)} s`);
  }, 180_000);

  it('adopts the folder and a file an interrupted attempt left in Drive instead of making them again', async () => {
    const { user, client } = await subscriber();
    const grant = await sandboxGrant('google');
    await connect(user, 'google', grant, '1 hour');
    const episode = await submit(client, user);
    const { data } = await client.from('episode_processing').select('id').eq('episode_id', episode.id).single();
    const processingId = (data as { id: string }).id;

    // What a worker killed right after Drive accepted them (before the row recorded them) leaves
    // behind: the episode folder and the full episode, tagged with the processing row. The short
    // render has not reached its upload yet.
    const auth = { authorization: `Bearer ${grant.accessToken}`, 'content-type': 'application/json' };
    const folder = (await (
      await fetch(`${config.urls.sandbox}/drive/v3/files`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'Short Show (earlier attempt)', mimeType: 'application/vnd.google-apps.folder', appProperties: { castloopProcessingId: processingId, castloopOutput: 'folder' } }),
      })
    ).json()) as { id: string };
    const boundary = 'castloop-test';
    const multipart = [
      `--${boundary}\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ name: 'Short Show.mp4', parents: [folder.id], mimeType: 'video/mp4', appProperties: { castloopProcessingId: processingId, castloopOutput: 'Short Show.mp4' } })}\r\n`,
      `--${boundary}\r\ncontent-type: video/mp4\r\n\r\nearlier bytes\r\n--${boundary}--\r\n`,
    ].join('');
    const earlier = (await (
      await fetch(`${config.urls.sandbox}/upload/drive/v3/files?uploadType=multipart`, {
        method: 'POST',
        headers: { ...auth, 'content-type': `multipart/related; boundary=${boundary}` },
        body: multipart,
      })
    ).json()) as { id: string };

    const row = await finished(client, episode.id);
    expect(row.status).toBe('delivered');
    expect(row.drive_folder_id).toBe(folder.id);
    expect(row.outputs.find((o) => o.kind === 'episode')?.driveFileId).toBe(earlier.id);
    const { files } = (await sandbox('/_sandbox/google')) as unknown as { files: { name: string; parents: string[]; mimeType: string; owner: string }[] };
    const owner = (await sandbox(`/oauth/_control/grant?state=${grant.state}`)).owner;
    expect(files.filter((f) => f.owner === owner && f.mimeType === 'application/vnd.google-apps.folder')).toHaveLength(1);
    const inFolder = files.filter((f) => f.parents.includes(folder.id)).map((f) => f.name).sort();
    expect(inFolder).toEqual(['Short Show - clip 01.mp4', 'Short Show - clip 02.mp4', 'Short Show.mp4']);
  }, 120_000);
});
