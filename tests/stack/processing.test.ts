// The built-in processing worker end to end: a subscriber submits a generated 75-second episode,
// the stack's worker renders the episode and the tier's clips and delivers them to the sandbox's
// Google Drive; a worker killed mid-piece leaves only that piece (worker/pieces.ts) to run again on
// another worker, and the episode is delivered once; a join or piece run again after the delivery
// changes nothing. The episode is short with room for the scale tier's 10 clips: the time here is
// mostly spent encoding audio, in proportion to the seconds rendered.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBoss } from 'pg-boss';
import { startWorkerProcess } from '../../local/worker.ts';
import { targetLength } from '../../worker/media/clip-selection.ts';
import { PROCESSING_QUEUE } from '../../worker/pipeline/jobs.ts';
import { QUEUE_SCHEMA } from '../../worker/runtime/queue-search-path.ts';
import type { ChildService } from '../../local/lib/process.ts';
import {
  colourName,
  frameColour,
  integratedLoudness,
  makeFixtures,
  PAUSE_EVERY,
  PAUSE_STARTS_AT,
  probeFile,
  type Fixtures,
} from '../support/media.ts';
import { config, withDb } from '../support/stack.ts';
import { useAutomation } from '../support/episodes.ts';
import {
  downloadFromDrive as driveDownload,
  NOT_TRANSCRIBED,
  postingHourComes,
  readySubscriber as readyWith,
  sandboxFiles,
  submit as submitFile,
  waitFor,
  type Output,
  type ProcessingRow,
} from '../support/processing.ts';
import { markEpisodeFilesChecked, signIn, uploadEpisodeObject } from '../support/submissions.ts';
import { createUser, type TestUser } from '../support/users.ts';
import type { SupabaseClient } from '@supabase/supabase-js';

let dir: string;
let media: Fixtures;
/** A 40 s episode, louder at 5-14 s and 25-34 s: what needs several pieces or clips but not the full length (the suite's time). */
let shortEpisode: string;

// These tests are about rendering and delivery: their subscribers' podcasts are in a language the
// offline engine does not transcribe, so the tone "speech" of the fixtures is not transcribed at
// pocketsphinx's cost; the words' path (captions, show notes, clips on sentences) is
// tests/stack/content.test.ts.
const readySubscriber = (tier: string, options: { youtube?: boolean; postAutomatically?: boolean } = {}) =>
  readyWith(media, tier, { language: NOT_TRANSCRIBED, ...options });
const submit = (client: SupabaseClient, user: TestUser, options: Record<string, unknown>, file = media.episode) => submitFile(client, user, options, file);
const downloadFromDrive = (fileId: string, token: string, name: string) => driveDownload(dir, fileId, token, name);

interface QueueJob {
  id: string;
  state: string;
  retry_count: number;
  data: { processingId: string; planId?: string; piece?: number };
  created_on: Date;
}

/** The queue's jobs of one submission: its own, its pieces', its join's. */
const queueJobs = (processingId: string) =>
  withDb(
    async (db) =>
      (await db.query<QueueJob>(`select id, state, retry_count, data, created_on from pgboss.job where data ->> 'processingId' = $1`, [processingId])).rows,
  );

/** Waits until every job of the submission has left the queue's active states. */
async function settled(processingId: string): Promise<QueueJob[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const jobs = await queueJobs(processingId);
    if (jobs.every((j) => j.state === 'completed' || j.state === 'failed')) return jobs;
    if (Date.now() > deadline) throw new Error(`jobs still running: ${JSON.stringify(jobs.map((j) => j.state))}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// Whatever the file before left active, these submissions are the built-in worker's.
useAutomation('builtin');

/** The generated episode's length; PAUSE_EVERY-second phrases, louder at 20-34 s and 62-74 s. */
const EPISODE_SECONDS = 75;
/** Where the short episode is louder: without words, its two clips (worker/media/clip-selection.ts). */
const SHORT_LOUDER = [[5, 14], [25, 34]] as const;

// A second worker beside the stack's: two subscribers' episodes render at once (the suite's
// time), and the kill below leaves the job to it.
let second: ChildService;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-processing-'));
  media = makeFixtures(dir, EPISODE_SECONDS);
  const shortDir = path.join(dir, 'short');
  mkdirSync(shortDir);
  shortEpisode = makeFixtures(shortDir, 40, undefined, SHORT_LOUDER).episode;
  second = await startWorkerProcess(config);
}, 120_000);

afterAll(async () => {
  await second?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('built-in processing', () => {
  // 120 s like its neighbours: with the clips' framing stage it came close to the default 60 s on a loaded machine.
  it('renders the trimmed episode with intro, outro and logo, and its clip, into one Drive folder', async () => {
    const { user, client, driveToken } = await readySubscriber('starter');
    const episode = await submit(client, user, { startTimestamp: '00:00:05', endTimestamp: '00:00:50', clipStyle: 'PROFESSIONAL' });

    const row = await waitFor(client, episode.id, (r) => r.status === 'delivered' || r.status === 'failed');
    expect(row).toMatchObject({ status: 'delivered', progress: 100, failure_reason: null });
    const episodeOut = row.outputs.filter((o) => o.kind === 'episode');
    const clips = row.outputs.filter((o) => o.kind === 'clip');
    expect(episodeOut).toHaveLength(1);
    // Without words, the sound's one lively stretch of the 45 s (20-34 s of the file): one clip of
    // the starter tier's 3, not the episode cut up.
    expect(clips).toHaveLength(1);

    // Every output is in one folder of the subscriber's Drive, under their token, once.
    const files = await sandboxFiles();
    const folder = files.find((f) => f.id === row.drive_folder_id);
    expect(folder).toMatchObject({ mimeType: 'application/vnd.google-apps.folder', owner: driveToken });
    // Its title and day, and the start of the episode id: two takes of one title and day never share a name.
    expect(folder?.name).toBe(`Test Show 12 (${new Date().toISOString().slice(0, 10)}, ${episode.id.slice(0, 4)})`);
    const inFolder = files.filter((f) => f.parents.includes(row.drive_folder_id as string));
    expect(inFolder.map((f) => f.name).sort()).toEqual(row.outputs.map((o) => o.name).sort());
    expect(inFolder.every((f) => f.owner === driveToken && f.size > 0)).toBe(true);
    // The clip reached Drive (and the review screen) from its own piece, before the episode was joined.
    const receivedAt = (name: string) => Date.parse(inFolder.find((f) => f.name === name)?.createdTime ?? '');
    expect(receivedAt(clips[0].name)).toBeLessThan(receivedAt(episodeOut[0].name));
    // Each output keeps Drive's own link to it (the episode page links and previews through it).
    for (const output of row.outputs) expect(output.driveUrl).toBe(inFolder.find((f) => f.id === output.driveFileId)?.webViewLink);

    // The episode: 2 s intro + 45 s trimmed (00:00:05-00:00:50) + 2 s outro, 16:9, normalised.
    const full = await downloadFromDrive(episodeOut[0].driveFileId, driveToken, 'episode-out.mp4');
    const probed = probeFile(full);
    expect(probed.durationSeconds).toBeGreaterThan(48.5);
    expect(probed.durationSeconds).toBeLessThan(49.6);
    expect(probed.width / probed.height).toBeCloseTo(16 / 9, 1);
    expect(colourName(frameColour(full, 0.5))).toBe('red');
    expect(colourName(frameColour(full, probed.durationSeconds - 0.6))).toBe('blue');
    // The logo sits in the top right corner of the main part only.
    expect(colourName(frameColour(full, 25, '20:20:288:10'))).toBe('green');
    expect(colourName(frameColour(full, 0.5, '20:20:288:10'))).toBe('red');
    expect(Math.abs(integratedLoudness(full) - -16)).toBeLessThan(2);

    // Clips: 9:16 with the clip intro and outro, cut at the pauses of the speech; each a record
    // the owner reads, with its file in Drive.
    const { data: records } = await client
      .from('episode_clips')
      .select('id, position, start_seconds, end_seconds, file_name, drive_file_id, title')
      .eq('episode_processing_id', row.id)
      .order('position');
    expect(records?.map((r) => [r.position, r.file_name, r.drive_file_id])).toEqual(clips.map((c, i) => [i + 1, c.name, c.driveFileId]));
    expect(clips.map((c) => c.clipId)).toEqual(records?.map((r) => r.id));
    for (const clip of clips) {
      expect(clip.width / clip.height).toBeCloseTo(9 / 16, 2);
      expect(clip.durationSeconds).toBeGreaterThanOrEqual(1 + 5 + 1 - 0.2);
      expect(clip.durationSeconds).toBeLessThanOrEqual(1 + 30 + 1 + 0.3);
    }
    for (const record of records ?? []) {
      // Episode time 5 + start is where speech resumes after a pause (t mod 5 = 0).
      const resumesAt = (5 + Number(record.start_seconds)) % PAUSE_EVERY;
      expect(Math.min(resumesAt, PAUSE_EVERY - resumesAt)).toBeLessThan(0.2);
    }
    expect(PAUSE_STARTS_AT).toBeLessThan(PAUSE_EVERY);
    const clipFile = await downloadFromDrive(clips[0].driveFileId, driveToken, 'clip-out.mp4');
    const clipProbe = probeFile(clipFile);
    expect([clipProbe.width, clipProbe.height]).toEqual([180, 320]);
    expect(colourName(frameColour(clipFile, 0.3))).toBe('yellow');
    expect(colourName(frameColour(clipFile, clipProbe.durationSeconds - 0.4))).toBe('magenta');
    // PROFESSIONAL: the primary band across the bottom (#112233 is dark, not the picture).
    const band = frameColour(clipFile, 3, '180:20:0:296');
    expect(band[0]).toBeLessThan(40);
    expect(band[2]).toBeLessThan(80);
    // The logo (addLogo) on the moment, top right inside the safe area, not on the clip intro.
    expect(colourName(frameColour(clipFile, 3, '20:20:137:43'))).toBe('green');
    expect(colourName(frameColour(clipFile, 0.3, '20:20:137:43'))).toBe('yellow');

    // The show's feed gets the episode's sound as podcast apps want it: public, an M4A of AAC at
    // -16 LUFS, served in ranges (issue 44).
    const { data: podcast } = await client.from('podcast_episode_files').select('audio_path, audio_bytes, duration_seconds').eq('episode_id', episode.id).single();
    expect(Number(podcast?.duration_seconds)).toBeCloseTo(probed.durationSeconds, 0);
    const audioUrl = `${config.urls.api}/storage/v1/object/public/podcast-feeds/${podcast?.audio_path}`;
    const ranged = await fetch(audioUrl, { headers: { range: 'bytes=0-99' } });
    expect([ranged.status, (await ranged.arrayBuffer()).byteLength]).toEqual([206, 100]);
    const audioFile = path.join(dir, 'podcast.m4a');
    writeFileSync(audioFile, Buffer.from(await (await fetch(audioUrl)).arrayBuffer()));
    expect(Number(podcast?.audio_bytes)).toBe(readFileSync(audioFile).byteLength);
    expect(probeFile(audioFile).width).toBe(0);
    expect(Math.abs(integratedLoudness(audioFile) - -16)).toBeLessThan(2);

    // An administrator reads the row too (the admin console's view of the submission).
    const admin = await createUser('admin');
    const { client: adminClient } = await signIn(admin);
    const { data: seen } = await adminClient.from('episode_processing').select('status').eq('id', row.id).single();
    expect(seen).toEqual({ status: 'delivered' });
  }, 120_000);

  it("gives growth and scale the episode's lively moments, never the episode cut end to end (issue 42, item 4)", async () => {
    const growth = await readySubscriber('growth');
    const scale = await readySubscriber('scale');
    const [g, s] = await Promise.all([
      submit(growth.client, growth.user, { addIntroOutro: false, addLogo: false }, shortEpisode),
      submit(scale.client, scale.user, { addIntroOutro: false, addLogo: false, clipStyle: 'CREATIVE' }),
    ]);
    const finished = (r: ProcessingRow) => r.status === 'delivered' || r.status === 'failed';
    // One worker takes them one after the other, each transcribed before it is rendered.
    const [gr, sr] = await Promise.all([waitFor(growth.client, g.id, finished, 300_000), waitFor(scale.client, s.id, finished, 300_000)]);
    expect(gr.status).toBe('delivered');
    expect(sr.status).toBe('delivered');
    // Without words the sound decides: each louder stretch is a clip, at pauses, and nothing else
    // is lively enough. Growth's 5 and scale's 10 are what they may have, not what they must.
    const cases = [
      { client: growth.client, row: gr, seconds: 40, louder: SHORT_LOUDER },
      { client: scale.client, row: sr, seconds: EPISODE_SECONDS, louder: [[20, 34], [62, 74]] },
    ];
    for (const { client, row, seconds, louder } of cases) {
      expect(row.outputs.filter((o) => o.kind === 'clip')).toHaveLength(2);
      const { data } = await client.from('episode_clips').select('start_seconds, end_seconds, score, reason').eq('episode_processing_id', row.id).order('position');
      const clips = (data ?? []).map((c) => ({ start: Number(c.start_seconds), end: Number(c.end_seconds), score: Number(c.score), reason: String(c.reason) }));
      clips.forEach((clip, i) => {
        expect(clip.end > louder[i][0] && clip.start < louder[i][1]).toBe(true);
        // The target length, or up to 3 s more to start and end at pauses.
        expect(clip.end - clip.start).toBeLessThanOrEqual(targetLength(seconds) + 3);
        expect(clip.score).toBeGreaterThan(0.5);
        expect(clip.reason).toMatch(/^Chosen by sound alone \(no words to read\)/);
      });
      // A gap of at least half a clip between them.
      expect(clips[1].start - clips[0].end).toBeGreaterThanOrEqual(targetLength(seconds) / 2);
    }
    // Without intro and outro the episode is the whole of it.
    const full = sr.outputs.find((o) => o.kind === 'episode') as Output;
    expect(full.durationSeconds).toBeGreaterThan(EPISODE_SECONDS - 0.5);
    expect(full.durationSeconds).toBeLessThan(EPISODE_SECONDS + 0.6);
  }, 240_000);

  it("renders an administrator's PORTRAIT resubmission as 9:16 clips and a LANDSCAPE one as 16:9 clips (issue 40, item 2)", async () => {
    const { user, client } = await readySubscriber('starter');
    const objectPath = `${user.id}/uploads/resubmitted.mp4`;
    await uploadEpisodeObject(client, objectPath, readFileSync(shortEpisode));
    await markEpisodeFilesChecked([objectPath]);
    const admin = await createUser('admin');
    const { client: adminClient } = await signIn(admin);
    const resubmit = async (clipStyle: string) => {
      const { data, error } = await adminClient.rpc('admin_resubmit_submission', {
        object_storage_files: [objectPath],
        user_email: user.email,
        episode_data: { clipStyle, addIntroOutro: false, addLogo: false },
      });
      if (error) throw new Error(error.message);
      return (data as { id: string }).id;
    };
    const logs = { PORTRAIT: await resubmit('PORTRAIT'), LANDSCAPE: await resubmit('LANDSCAPE') };
    for (const [style, size] of [['PORTRAIT', [180, 320]], ['LANDSCAPE', [320, 180]]] as const) {
      const deadline = Date.now() + 180_000;
      let row: { status: string; failure_reason: string | null; outputs: Output[] } | undefined;
      while (Date.now() < deadline) {
        row = await withDb(async (db) => (await db.query('select status, failure_reason, outputs from public.episode_processing where submission_log_id = $1', [logs[style]])).rows[0]);
        if (row?.status === 'delivered' || row?.status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(row, style).toMatchObject({ status: 'delivered', failure_reason: null });
      const clips = row?.outputs.filter((o) => o.kind === 'clip') ?? [];
      expect(clips.length, style).toBeGreaterThan(0);
      for (const clip of clips) expect([clip.width, clip.height], `${style}: ${clip.name}`).toEqual(size);
    }
  }, 240_000);

  it('fails a submission whose file is not a video, with the reason', async () => {
    const { user, client } = await readySubscriber('starter');
    const junk = path.join(dir, 'junk.mp4');
    writeFileSync(junk, Buffer.alloc(64 * 1024, 7));
    const episode = await submit(client, user, {}, junk);
    const row = await waitFor(client, episode.id, (r) => r.status === 'failed' || r.status === 'delivered', 30_000);
    expect(row.status).toBe('failed');
    expect(row.failure_reason).toMatch(/is not a readable video/);
  });

  describe('with a second worker', () => {
    // The short episode: the kill needs a piece mid-render, not a long episode (the suite's time); 40 s
    // is still two main segments (WORKER_SEGMENT_SECONDS=30 in tests).
    it('a worker killed mid-piece leaves that piece alone to run again on another worker; delivered once, posted once; a join or piece run again changes nothing', async () => {
      const { user, client, driveToken, youtubeToken } = await readySubscriber('starter', { youtube: true, postAutomatically: true });
      const episode = await submit(client, user, { addLogo: false, daysBetweenClips: 3 }, shortEpisode);
      // A clip: the picture's segments start while the submission job is still at work, and the
      // worker that rendered them may be idle by the time the row shows them.
      const rendering = await waitFor(client, episode.id, (r) => r.status === 'processing' && (r.stage ?? '').startsWith('rendering clip'));
      const [, pid] = (rendering.worker as string).split('/');
      // The whole process group: the worker and its ffmpeg, as when a machine or container dies.
      process.kill(-Number(pid), 'SIGKILL');

      const row = await waitFor(client, episode.id, (r) => r.status === 'delivered' || r.status === 'failed', 150_000);
      expect(row.status).toBe('delivered');
      expect(row.attempts).toBe(2);
      expect(row.worker).not.toBe(rendering.worker);
      const jobs = await settled(row.id);
      const pieces = jobs.filter((j) => j.data.piece !== undefined);
      // The intro, two main segments and the outro, the sound, two clips; only the killed one ran twice.
      expect(pieces).toHaveLength(7);
      expect(pieces.filter((j) => j.retry_count > 0)).toHaveLength(1);
      const join = jobs.filter((j) => j.data.planId && j.data.piece === undefined);
      expect(join).toHaveLength(1);
      expect(jobs.find((j) => !j.data.planId)?.retry_count).toBe(0);
      // The picture's four segments were queued first, in a transaction of their own (before the
      // sound's analysis); the sound and the clips later, once the submission job had planned them.
      const queuedAt = (piece: number) => Math.min(...pieces.filter((j) => j.data.piece === piece).map((j) => j.created_on.getTime()));
      for (const piece of [4, 5, 6]) expect(queuedAt(piece)).toBeGreaterThan(Math.max(...[0, 1, 2, 3].map(queuedAt)));
      const files = await sandboxFiles();
      const folders = files.filter((f) => f.owner === driveToken && f.mimeType === 'application/vnd.google-apps.folder');
      expect(folders).toHaveLength(1);
      const inFolder = files.filter((f) => f.parents.includes(row.drive_folder_id as string));
      // The episode and its two clips.
      expect(inFolder).toHaveLength(3);
      expect(new Set(inFolder.map((f) => f.name)).size).toBe(3);

      // postAutomatically: the full episode on YouTube at once, one clip every 3 days from the
      // posting hour; the rest wait.
      await postingHourComes(row.id);
      const { data: posts } = await client
        .from('scheduled_posts')
        .select('provider, scheduled_for, status, clip:episode_clips(file_name)')
        .eq('kind', 'clip')
        .order('scheduled_for');
      const clipNames = row.outputs.filter((o) => o.kind === 'clip').map((o) => o.name);
      expect(posts?.map((p) => [p.provider, (p.clip as unknown as { file_name: string }).file_name])).toEqual(clipNames.map((name) => ['youtube', name]));
      const times = (posts ?? []).map((p) => new Date(p.scheduled_for).getTime());
      expect(times).toHaveLength(2);
      expect((times[1] - times[0]) / 86_400_000).toBeCloseTo(3, 3);
      const deadline = Date.now() + 30_000;
      let videos: { title: string; owner: string }[] = [];
      while (Date.now() < deadline) {
        const res = await fetch(`${config.urls.sandbox}/_sandbox/google`);
        videos = ((await res.json()) as { videos: { title: string; owner: string }[] }).videos.filter((v) => v.owner === youtubeToken);
        if (videos.length >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      expect(videos.map((v) => v.title).sort()).toEqual([clipNames[0].replace(/\.mp4$/, ''), 'Test Show 12'].sort());
      const postedBy = Date.now() + 10_000;
      let statuses: string[] = [];
      while (Date.now() < postedBy) {
        const { data } = await client.from('scheduled_posts').select('status').eq('kind', 'clip').order('scheduled_for');
        statuses = (data ?? []).map((p) => p.status as string);
        if (statuses[0] === 'posted') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(statuses).toEqual(['posted', 'scheduled']);

      // The join and a piece run again after the delivery, as pg-boss would after a worker died
      // between finishing them and recording so: nothing is sent, posted or recorded again.
      const filesBefore = (await sandboxFiles()).filter((f) => f.owner === driveToken);
      const boss = new PgBoss({ connectionString: config.urls.db, schema: QUEUE_SCHEMA, supervise: false, schedule: false, migrate: false });
      await boss.start();
      try {
        for (const data of [join[0].data, { ...join[0].data, piece: 0 }]) await boss.send(PROCESSING_QUEUE, data);
      } finally {
        await boss.stop({ graceful: false });
      }
      const again = await settled(row.id);
      expect(again).toHaveLength(jobs.length + 2);
      expect(again.filter((j) => j.state === 'completed')).toHaveLength(again.length);
      const { data: after } = await client.from('episode_processing').select('status, outputs, attempts').eq('id', row.id).single();
      expect(after).toEqual({ status: 'delivered', outputs: row.outputs, attempts: row.attempts });
      expect((await sandboxFiles()).filter((f) => f.owner === driveToken)).toEqual(filesBefore);
      const { data: postsAfter } = await client.from('scheduled_posts').select('kind, status').order('scheduled_for');
      expect(postsAfter?.filter((p) => p.kind === 'clip').map((p) => p.status)).toEqual(['posted', 'scheduled']);
      expect(postsAfter?.filter((p) => p.kind === 'episode').map((p) => p.status)).toEqual(['posted']);
    }, 240_000);
  });
});
