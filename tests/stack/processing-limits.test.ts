// What the worker refuses, and how it shares itself: a playlist uploaded as a logo or an episode
// reads no other file; a picture, frame rate or length over the plan's caps is refused with the
// reason; an attempt past the plan's time limit is stopped (its ffmpeg killed) and failed; and a
// subscriber's second episode waits behind another subscriber's first.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeLimitReason } from '../../supabase/functions/_shared/domain-server/processing-limits.ts';
import { useAutomation } from '../support/episodes.ts';
import { colourName, frameColour, makeFixtures, makeVideo, type Fixtures } from '../support/media.ts';
import { downloadFromDrive, finished, NOT_TRANSCRIBED, readySubscriber as readyWith, submit, waitFor, type Output } from '../support/processing.ts';
import { serviceClient, withDb } from '../support/stack.ts';

let dir: string;
let media: Fixtures;
// Limits, not words: these podcasts are in a language the offline engine does not transcribe
// (tests/stack/content.test.ts covers the words).
const readySubscriber = (tier: string) => readyWith(media, tier, { language: NOT_TRANSCRIBED });
/** A magenta video on the machine the worker runs on, which no subscriber's file may reach. */
let secret: string;
const file = (name: string) => path.join(dir, name);
const playlistNaming = (target: string) =>
  `#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:3.0,\n${target}\n#EXT-X-ENDLIST\n`;

/**
 * A plan of its own for a test: one clip per episode, no monthly limit, the caps given and the
 * others as the starter plan's.
 */
const testPlans: string[] = [];
async function planWith(caps: {
  max_episode_seconds?: number;
  processing_time_limit_seconds?: number;
}): Promise<string> {
  const id = `test_caps_${Date.now().toString(36)}_${testPlans.length}`;
  await withDb((db) =>
    db.query(
      `insert into public.plans (id, title, listed, clips_per_episode, max_episode_seconds, processing_time_limit_seconds)
       select $1, 'Test caps', false, 1, coalesce($2, s.max_episode_seconds), coalesce($3, s.processing_time_limit_seconds)
         from public.plans s where s.id = 'starter'`,
      [id, caps.max_episode_seconds ?? null, caps.processing_time_limit_seconds ?? null],
    ),
  );
  testPlans.push(id);
  return id;
}

useAutomation('builtin');

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-limits-'));
  media = makeFixtures(dir, 20);
  secret = makeVideo(file('secret.mp4'), { size: '320x180', fps: 10, seconds: 3, colour: 'magenta' });
}, 120_000);

afterAll(async () => {
  await withDb(async (db) => {
    await db.query(`update public.subscriptions set tier = 'starter' where tier = any($1)`, [testPlans]);
    await db.query(`delete from public.plans where id = any($1)`, [testPlans]);
  });
  rmSync(dir, { recursive: true, force: true });
});

describe('a file names another file', () => {
  it('a playlist uploaded as the logo draws nothing into the episode; one uploaded as the episode fails it', async () => {
    const { user, client, driveToken } = await readySubscriber(await planWith({}));
    // Subscribers can no longer store such a logo (the api checks a brand asset's bytes): the file
    // is put in place with the service role, as one stored before that check would be, to show the
    // worker reads it safely on its own.
    const logoPath = `${user.id}/logo/x.png`;
    const { error } = await serviceClient()
      .storage.from('brand-assets')
      .upload(logoPath, Buffer.from(playlistNaming(secret)), { contentType: 'image/png' });
    expect(error).toBeNull();
    await withDb((db) => db.query('update public.profiles set logo_path = $1 where id = $2', [logoPath, user.id]));

    const black = makeVideo(file('black.mp4'), { size: '320x180', fps: 10, seconds: 6, colour: 'black' });
    const withLogo = await submit(client, user, { addIntroOutro: false }, black);
    const row = await waitFor(client, withLogo.id, finished);
    expect(row.status).toBe('delivered');
    const episode = row.outputs.find((o) => o.kind === 'episode') as Output;
    const out = await downloadFromDrive(dir, episode.driveFileId, driveToken, 'with-logo.mp4');
    // Where the logo goes (top right): the episode's own black, not the magenta file.
    expect(colourName(frameColour(out, 2, '20:20:288:10'))).toBe('black');

    writeFileSync(file('playlist.mp4'), playlistNaming(secret));
    const asEpisode = await submit(client, user, { addIntroOutro: false, addLogo: false }, file('playlist.mp4'));
    const failed = await waitFor(client, asEpisode.id, finished, 60_000);
    expect(failed).toMatchObject({ status: 'failed', outputs: [] });
    expect(failed.failure_reason).toMatch(/^episode-.*\.mp4 is not a readable video$/);
  });
});

describe('caps of the plan', () => {
  // Every listed plan takes up to 3840x2160 at 60 fps; the length cap is tried on a plan of its own.
  it('refuses a picture larger than 4K, more than 60 frames per second, and an episode longer than the plan allows, each with its reason', async () => {
    const growth = await readySubscriber('growth');
    const huge = makeVideo(file('huge.mp4'), { size: '4096x4096', fps: 1, seconds: 2, colour: 'gray' });
    const fast = makeVideo(file('fast.mp4'), { size: '64x64', fps: 120, seconds: 2, colour: 'white' });
    const short = await readySubscriber(await planWith({ max_episode_seconds: 5 }));
    const long = makeVideo(file('long.mp4'), { size: '64x64', fps: 10, seconds: 8 });

    const options = { addIntroOutro: false, addLogo: false };
    const [a, b, c] = [
      await submit(growth.client, growth.user, options, huge),
      await submit(growth.client, growth.user, options, fast),
      await submit(short.client, short.user, options, long),
    ];
    const [hugeRow, fastRow, longRow] = await Promise.all([
      waitFor(growth.client, a.id, finished, 90_000),
      waitFor(growth.client, b.id, finished, 90_000),
      waitFor(short.client, c.id, finished, 90_000),
    ]);
    expect(hugeRow.status).toBe('failed');
    expect(hugeRow.failure_reason).toMatch(
      /\.mp4 is 4096x4096: your plan accepts videos of up to 3840x2160 \(or the same number of pixels\)\.$/,
    );
    expect(fastRow.status).toBe('failed');
    expect(fastRow.failure_reason).toMatch(/\.mp4 has 120 frames per second: your plan accepts up to 60\.$/);
    expect(longRow.status).toBe('failed');
    expect(longRow.failure_reason).toBe('The episode lasts 0:00:08: your plan accepts episodes of up to 0:00:05.');
    // Refused before any rendering: one attempt each, nothing delivered.
    for (const row of [hugeRow, fastRow, longRow]) expect(row).toMatchObject({ attempts: 1, outputs: [] });
  }, 120_000);

  it("stops an attempt past the plan's time limit: its ffmpeg is killed and the episode fails with the reason, not retried", async () => {
    const seconds = 2;
    const { user, client } = await readySubscriber(await planWith({ processing_time_limit_seconds: seconds }));
    // Half a minute of a moving 1080p picture. The limit bounds each job of the split pipeline: from
    // 960x540 every job finished within 2 s once on a quiet machine (the clip piece took 2.0 s);
    // at 1080p the submission job alone (fetching and reading the file) runs past it.
    const busy = makeVideo(file('busy.mp4'), { size: '1920x1080', fps: 25, seconds: 30, pattern: true });
    const episode = await submit(client, user, {}, busy);
    const row = await waitFor(client, episode.id, finished, 60_000);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    // The episode was never delivered: at most a clip its own piece finished in time is in Drive.
    expect(row.outputs.filter((output) => output.kind !== 'clip')).toEqual([]);
    expect(row.failure_reason).toBe(
      timeLimitReason({ timeLimitSeconds: seconds, maxVideoPixels: 0, maxFrameRate: 0, maxEpisodeSeconds: 0 }),
    );
    // No process still works on the job's files (they are named after the processing row).
    const running = readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid))
      .map((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        } catch {
          return '';
        }
      })
      .filter((cmdline) => cmdline.includes(row.id));
    expect(running).toEqual([]);
  }, 90_000);
});

describe('turns between subscribers', () => {
  it("another subscriber's episode runs before a subscriber's second one", async () => {
    const a = await readySubscriber(await planWith({}));
    const b = await readySubscriber(await planWith({}));
    const short = makeVideo(file('turns.mp4'), { size: '64x64', fps: 10, seconds: 6 });
    const options = { addIntroOutro: false, addLogo: false };
    const first = await Promise.all([1, 2, 3].map(() => submit(a.client, a.user, options, short)));
    const other = await submit(b.client, b.user, options, short);
    const rows = [
      ...(await Promise.all(first.map((e) => waitFor(a.client, e.id, finished, 120_000)))),
      await waitFor(b.client, other.id, finished, 120_000),
    ];
    expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    const startsOfA = rows
      .slice(0, 3)
      .map((r) => new Date(r.started_at as string).getTime())
      .sort((x, y) => x - y);
    const startOfB = new Date(rows[3].started_at as string).getTime();
    // a's first may already run when b submits; b's then goes before a's second and third.
    expect(startOfB).toBeLessThan(startsOfA[1]);
  }, 150_000);
});
