// Review before posting in a real browser, on the real worker (issue 41): a title given at
// submission names the Drive folder, the YouTube post and the WordPress post; nothing reaches any
// platform before approval; a clip's YouTube title and X text edited on the review screen are what
// the platforms receive; a word corrected in the transcript editor re-renders only the clip it is
// in, and that clip's frames change where its caption is. Axe at 1280 and 390 px.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentMediaTools } from '../../worker/media/ffmpeg.ts';
import { useAutomation } from '../support/episodes.ts';
import { makeFixtures, type Fixtures } from '../support/media.ts';
import { connect, connectWordpress, sandboxGrant } from '../support/platforms.ts';
import { downloadFromDrive, postingHourComes, readySubscriber, sandboxFiles } from '../support/processing.ts';
import { episodeWith, SPEECH_SCRIPT, spokenWav, SPOKEN_WITH_PAUSES, withPauses } from '../support/speech.ts';
import { config, withDb } from '../support/stack.ts';
import { expectAccessible, expectOnPage, useBrowser, waitForToast } from './support/browser.ts';

const harness = useBrowser();
useAutomation('builtin');

let dir: string;
let media: Fixtures;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-review-'));
  media = makeFixtures(dir, 10);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface SandboxState {
  videos: { id: string; title: string; description?: string; owner: string }[];
  posts: { platform: string; owner: string; text: string; status?: string; content?: string }[];
}

async function sandboxState(): Promise<SandboxState> {
  const google = (await (await fetch(`${config.urls.sandbox}/_sandbox/google`)).json()) as { videos: SandboxState['videos'] };
  const social = (await (await fetch(`${config.urls.sandbox}/_sandbox/social`)).json()) as { posts: SandboxState['posts'] };
  return { videos: google.videos, posts: social.posts };
}

async function grantOwner(state: string): Promise<string> {
  return ((await (await fetch(`${config.urls.sandbox}/oauth/_control/grant?state=${state}`)).json()) as { owner: string }).owner;
}

interface ClipRow {
  id: string;
  position: number;
  first_sentence: number;
  start_seconds: string;
  drive_file_id: string;
  render_version: number;
}

const clipsOf = (processingId: string) =>
  withDb(async (db) => (await db.query<ClipRow>(`select * from public.episode_clips where episode_processing_id = $1 order by position`, [processingId])).rows);

/** A video's frames at 4 per second, grey, 90x160: one buffer per frame. */
function framesOf(file: string): Buffer[] {
  const { ffmpeg } = currentMediaTools();
  const out = spawnSync(ffmpeg, ['-v', 'error', '-i', file, '-vf', 'fps=4,scale=90:160,format=gray', '-f', 'rawvideo', '-'], { maxBuffer: 256 * 1024 * 1024 });
  const frame = 90 * 160;
  return Array.from({ length: Math.floor(out.stdout.length / frame) }, (_, i) => out.stdout.subarray(i * frame, (i + 1) * frame));
}

/** The rows (0-159) where two frames differ noticeably. */
function changedRows(a: Buffer, b: Buffer): number[] {
  const rows: number[] = [];
  for (let y = 0; y < 160; y++) {
    let sum = 0;
    for (let x = 0; x < 90; x++) sum += Math.abs(a[y * 90 + x] - b[y * 90 + x]);
    if (sum / 90 > 12) rows.push(y);
  }
  return rows;
}

/** The episode's blog post on WordPress (its clips are posts there too, under their own titles). */
const isArticle = (post: SandboxState['posts'][number]) => post.platform === 'wordpress' && post.status === 'publish' && post.text.startsWith('Why Budgets Fail');

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function atBothWidths(page: Page): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
  }
}

describe('review before posting', () => {
  it('holds everything until approved, and posts the title and edits the subscriber gave', async () => {
    const { user, driveToken, youtubeToken } = await readySubscriber(media, 'starter', { youtube: true, postAutomatically: true, language: 'en' });
    // A new subscriber's review window (the support's subscribers post at once).
    await withDb((db) => db.query(`update public.profiles set review_window = '24h' where id = $1`, [user.id]));
    const xGrant = await sandboxGrant('x');
    await connect(user, 'x', xGrant, '1 hour');
    const site = `review-${user.id.slice(0, 8)}`;
    await connectWordpress(user, site);
    const xOwner = await grantOwner(xGrant.state);

    const page = await harness.signedInPage(user);
    await page.goto('/');
    await expectOnPage(page, '/');
    await page.getByRole('button', { name: 'Submit New Episode' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
    // Paused between sentences: topics the clip choice can tell apart, so there is more than one clip.
    await dialog.getByLabel('Choose MP4 files').setInputFiles(episodeWith({ wav: spokenWav(withPauses(SPEECH_SCRIPT), SPOKEN_WITH_PAUSES) }));
    await waitForToast(page, 'Files Uploaded Successfully!');
    await dialog.getByLabel('Episode title (optional)').fill('Why Budgets Fail');
    await dialog.getByLabel('Guests (optional, separated by commas)').fill('Ana Ruiz');
    await dialog.getByRole('button', { name: 'Submit Episode' }).click();
    await waitForToast(page, 'Episode Submitted Successfully!');
    await page.getByRole('link', { name: 'Why Budgets Fail' }).click();

    // Delivered, and held: the offline engine was unsure of the synthetic voice.
    await page.getByText('Waiting for your approval').waitFor({ timeout: 120_000 });
    await page.getByText('The speech recognition was unsure of many words', { exact: false }).waitFor();
    await page.getByText('Guests: Ana Ruiz').waitFor();
    const processingId = (await withDb((db) => db.query(`select id from public.episode_processing where user_id = $1`, [user.id]))).rows[0].id as string;
    await atBothWidths(page);

    const folder = (await sandboxFiles()).find((f) => f.owner === driveToken && f.mimeType === 'application/vnd.google-apps.folder');
    expect(folder?.name).toMatch(/^Why Budgets Fail \(\d{4}-\d{2}-\d{2}, [0-9a-f]{4}\)$/);
    const mine = (state: SandboxState) => ({
      videos: state.videos.filter((v) => v.owner === youtubeToken),
      posts: state.posts.filter((p) => p.owner === xOwner || p.owner === `wordpress:${site}`),
    });
    expect(mine(await sandboxState())).toEqual({ videos: [], posts: [] });

    // The first clip's YouTube title and X text.
    const [first, second] = await clipsOf(processingId);
    await page.getByRole('button', { name: /^Edit texts of / }).first().click();
    const texts = page.getByRole('dialog', { name: "Edit the clip's texts" });
    await texts.getByLabel('YouTube title').fill('Budgets, plainly');
    await texts.getByLabel('X post').fill('Why budgets fail: a thread');
    await expectAccessible(page);
    await texts.getByRole('button', { name: 'Save texts' }).click();
    await waitForToast(page, 'Texts saved');

    // A word of the first clip, corrected: only that clip is rendered again.
    const before = { first: await downloadFromDrive(dir, first.drive_file_id, driveToken, 'first-before.mp4'), second: await downloadFromDrive(dir, second.drive_file_id, driveToken, 'second-before.mp4') };
    const transcript = (await withDb((db) => db.query(`select sentences from public.episode_transcripts where episode_processing_id = $1`, [processingId]))).rows[0].sentences as { start: number }[];
    const at = transcript[first.first_sentence].start;
    const label = `${Math.floor(at / 60)}:${String(Math.round(at % 60)).padStart(2, '0')}`;
    await page.getByRole('button', { name: `Edit the sentence at ${label}` }).first().click();
    await page.getByLabel(`Word 1 of`, { exact: false }).first().fill('BUDGETS');
    await page.getByRole('button', { name: 'Done' }).click();
    const saved = Date.now();
    await page.getByRole('button', { name: 'Save corrections' }).click();
    await waitForToast(page, 'Transcript saved');
    await expect.poll(async () => (await clipsOf(processingId))[0].render_version, { timeout: 120_000, interval: 500 }).toBe(2);
    const renderSeconds = (Date.now() - saved) / 1000;
    console.log(`save transcript -> corrected clip in Drive: ${renderSeconds.toFixed(1)} s`);
    const [firstAfter, secondAfter] = await clipsOf(processingId);
    expect(secondAfter.render_version).toBe(1);
    expect(firstAfter.drive_file_id).toBe(first.drive_file_id);
    const after = { first: await downloadFromDrive(dir, first.drive_file_id, driveToken, 'first-after.mp4'), second: await downloadFromDrive(dir, second.drive_file_id, driveToken, 'second-after.mp4') };
    expect(sha(after.second)).toBe(sha(before.second));
    expect(sha(after.first)).not.toBe(sha(before.first));
    // The frames that changed changed in one band (the caption), not over the picture.
    const [old, corrected] = [framesOf(before.first), framesOf(after.first)];
    const changed = old.map((frame, i) => changedRows(frame, corrected[i] ?? frame)).filter((rows) => rows.length > 0);
    expect(changed.length).toBeGreaterThan(0);
    for (const rows of changed) expect(Math.max(...rows) - Math.min(...rows)).toBeLessThan(160 * 0.35);

    // Still nothing out; approving starts the schedule, and at the posting hour the edits go out.
    expect(mine(await sandboxState())).toEqual({ videos: [], posts: [] });
    await page.getByRole('button', { name: 'Approve and start posting' }).click();
    await waitForToast(page, 'Approved');
    await postingHourComes(processingId);
    await expect
      .poll(async () => {
        const { videos, posts } = mine(await sandboxState());
        return videos.length >= 2 && posts.some((p) => p.platform === 'x') && posts.some(isArticle);
      }, { timeout: 60_000, interval: 500 })
      .toBe(true);
    const state = mine(await sandboxState());
    // The clip, and the full episode under its title with the show notes (issue 42, item 6).
    expect(state.videos.map((v) => v.title).sort()).toEqual(['Budgets, plainly', 'Why Budgets Fail']);
    expect(state.videos.find((v) => v.title === 'Budgets, plainly')?.description).toContain('From "Why Budgets Fail".');
    const episodeVideo = state.videos.find((v) => v.title === 'Why Budgets Fail');
    // The edited X text, then the full episode's YouTube video.
    expect(state.posts.filter((p) => p.platform === 'x').map((p) => p.text)).toEqual([
      `Why budgets fail: a thread\n\nFull episode: https://www.youtube.com/watch?v=${episodeVideo?.id}`,
    ]);
    // The blog post, published (the subscriber posts automatically), under the episode's title,
    // linking to the YouTube episode, never to a private Drive file.
    const articles = state.posts.filter(isArticle);
    expect(articles).toHaveLength(1);
    expect(articles[0].content).not.toMatch(/drive\.google\.com|_sandbox\/google\/files/);
    expect(articles[0].content).toContain(`https://www.youtube.com/watch?v=${episodeVideo?.id}`);
    await atBothWidths(page);
  }, 300_000);
});
