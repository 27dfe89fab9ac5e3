// The episode page in a real browser (issue 26, item 10): from Recent Episodes' "View all" to the
// full list and one episode; live progress that turns to Delivered without a reload; a clip
// previewed from the local Google Drive sandbox; the posting calendar's Postpone (a past date
// refused), Cancel (after confirming) and Post now; a failed episode's reason and Retry. Axe at
// 1280 and 390 px.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { config, withDb } from '../support/stack.ts';
import { createUser } from '../support/users.ts';
import { postRow, sampleContent, seedEpisode } from '../support/episode-page.ts';
import { expectAccessible, expectOnPage, useBrowser, waitForToast } from './support/browser.ts';

const harness = useBrowser();

/** A clip stored in the Drive sandbox (any bearer token owns its own files there); its webViewLink. */
async function sandboxClip(): Promise<{ id: string; webViewLink: string }> {
  const boundary = 'castloop-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ name: 'Show - clip 01.mp4', mimeType: 'video/mp4' })}\r\n--${boundary}\r\ncontent-type: video/mp4\r\n\r\n`),
    Buffer.from('not really a video'),
    Buffer.from(`\r\n--${boundary}--`),
  ]);
  const res = await fetch(`${config.urls.sandbox}/upload/drive/v3/files?uploadType=multipart`, {
    method: 'POST',
    headers: { authorization: 'Bearer episode-page-test', 'content-type': `multipart/related; boundary=${boundary}` },
    body,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; webViewLink: string };
}

async function atWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await expectAccessible(page);
}

describe('the episode page', () => {
  it('goes from Recent Episodes to the list and the episode, follows progress live, previews a clip and manages the calendar', async () => {
    const user = await createUser('onboarded');
    const clip = await sandboxClip();
    const seeded = await seedEpisode(user.id, {
      title: 'Engines of Thought 12',
      status: 'processing',
      stage: 'rendering clip 2 of 3',
      progress: 55,
      posts: [
        { clipName: 'Show - clip 01.mp4', inDays: 1, provider: 'youtube' },
        { clipName: 'Show - clip 01.mp4', inDays: 1, provider: 'linkedin' },
        { clipName: 'Show - clip 02.mp4', inDays: 2, provider: 'x' },
      ],
    });
    const page = await harness.signedInPage(user);
    await page.goto('/');
    await expectOnPage(page, '/');
    await page.getByRole('link', { name: 'View all episodes' }).click();
    await expectOnPage(page, '/episodes');
    await page.getByRole('heading', { name: 'Your Episodes' }).waitFor();
    await atWidth(page, 390);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Engines of Thought 12' }).click();
    await page.waitForURL(`**/episodes/${seeded.episodeId}`);
    await expect.poll(() => page.title()).toBe('Episode · Castloop');

    await page.getByText('Processing: rendering clip 2 of 3 (55%)').waitFor();
    await page.getByRole('progressbar', { name: 'Processing progress of Engines of Thought 12' }).waitFor();
    await atWidth(page, 1280);
    await atWidth(page, 390);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The worker finishes: the page shows it without a reload.
    await withDb((db) =>
      db.query(
        `update public.episode_processing set status = 'delivered', progress = 100, stage = null, finished_at = now(), drive_folder_url = $2, outputs = $3, content = $4
          where id = $1`,
        [seeded.processingId, `${config.urls.sandbox}/_sandbox/google/files/folder`, JSON.stringify([
          { name: 'Show - clip 01.mp4', kind: 'clip', durationSeconds: 30, width: 1080, height: 1920, driveFileId: clip.id, driveUrl: clip.webViewLink },
        ]), JSON.stringify(sampleContent())],
      ),
    );
    await page.getByTestId('episode-status').getByText('Delivered').waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Open the Google Drive folder' }).waitFor();
    // Every panel a delivered episode shows (files, calendar, transcript, show notes, blog post).
    await page.getByRole('heading', { name: 'Summary' }).waitFor();
    await atWidth(page, 390);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Preview Show - clip 01.mp4' }).click();
    const preview = page.frameLocator('iframe[title="Preview of Show - clip 01.mp4"]');
    await preview.getByRole('heading', { name: 'Show - clip 01.mp4' }).waitFor();
    await preview.locator('video').waitFor({ state: 'attached' });

    // Each clip's posts, folded under one line: opened to change them.
    await page.getByLabel('Show the posts of Show - clip 01').click();
    await page.getByLabel('Show the posts of Show - clip 02').click();
    // Postpone: a past date is refused before anything is sent; a future one moves the post.
    await page.getByRole('button', { name: 'Postpone Show - clip 01 on YouTube' }).click();
    const dialog = page.getByRole('dialog', { name: 'Postpone post' });
    await dialog.getByLabel('New date and time').fill('2020-01-01T10:00');
    await dialog.getByRole('button', { name: 'Postpone' }).click();
    await dialog.getByText('Choose a date and time in the future.').waitFor();
    await expectAccessible(page);
    const year = new Date().getFullYear() + 1;
    await dialog.getByLabel('New date and time').fill(`${year}-01-02T10:00`);
    await dialog.getByRole('button', { name: 'Postpone' }).click();
    await waitForToast(page, 'Post postponed');
    expect((await postRow(seeded.postIds[0])).scheduled_for.getFullYear()).toBe(year);

    // Cancel asks first.
    await page.getByRole('button', { name: 'Cancel Show - clip 01 on LinkedIn' }).click();
    await page.getByRole('dialog', { name: 'Cancel this post?' }).getByRole('button', { name: 'Keep post' }).click();
    expect((await postRow(seeded.postIds[1])).status).toBe('scheduled');
    await page.getByRole('button', { name: 'Cancel Show - clip 01 on LinkedIn' }).click();
    await page.getByRole('dialog', { name: 'Cancel this post?' }).getByRole('button', { name: 'Cancel post' }).click();
    await waitForToast(page, 'Post canceled');
    await page.getByText('Canceled', { exact: true }).first().waitFor();
    expect((await postRow(seeded.postIds[1])).status).toBe('canceled');

    await page.getByRole('button', { name: 'Post Show - clip 02 on X (Twitter) now' }).click();
    await waitForToast(page, 'Posting now', 'The post goes out within a minute.');
    expect((await postRow(seeded.postIds[2])).scheduled_for.getTime()).toBeLessThanOrEqual(Date.now());
    await atWidth(page, 390);
  }, 120_000);

  it('fits a phone with a 60-character title: the page, its clip cards and the cancel confirmation stay within 390 px', async () => {
    const user = await createUser('onboarded');
    const title = 'Microphones, Sounds and Dynamics: A Very Long Episode Title!';
    expect(title).toHaveLength(60);
    const name = `${title} - clip 01.mp4`;
    const seeded = await seedEpisode(user.id, {
      title,
      content: sampleContent(),
      outputs: [{ name, kind: 'clip', durationSeconds: 30, width: 1080, height: 1920, driveFileId: 'c1', driveUrl: 'https://drive.google.com/file/d/c1/view' }],
      posts: [{ clipName: name, inDays: 1, provider: 'linkedin' }],
    });
    const page = await harness.signedInPage(user);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/episodes/${seeded.episodeId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByLabel(`Show the posts of ${title} - clip 01`).click();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: `Cancel ${title} - clip 01 on LinkedIn` }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel this post?' }).getByRole('button', { name: 'Cancel post' });
    const box = await confirm.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await expectAccessible(page);
  });

  it("shows a failed episode's reason with Retry, and 'Episode not found' for another user's episode", async () => {
    const user = await createUser('onboarded');
    const other = await createUser('onboarded');
    const failed = await seedEpisode(user.id, { title: 'Broken', status: 'failed', failureReason: 'Broken.mp4 is not a readable video' });
    const theirs = await seedEpisode(other.id, { title: 'Not yours' });
    const page = await harness.signedInPage(user);
    await page.goto('/');
    await expectOnPage(page, '/');
    await page.goto(`/episodes/${failed.episodeId}`);
    await page.getByText('Broken.mp4 is not a readable video').waitFor();
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    await expectAccessible(page);
    await page.goto(`/episodes/${theirs.episodeId}`);
    await page.getByRole('heading', { name: 'Episode not found' }).waitFor();
    expect(await page.getByText('Not yours', { exact: true }).count()).toBe(0);
  });
});
