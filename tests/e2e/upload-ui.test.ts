// The upload dialog's additions in a real browser (issue 26, item 11): files dropped onto the
// file area upload like chosen ones; an upload continued after a reload says it is resuming; the
// interrupted-uploads notice can be dismissed for good. Axe on the dialog at 1280 and 390 px.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mp4Like, useAutomation } from '../support/episodes.ts';
import { createUser } from '../support/users.ts';
import { expectAccessible, expectOnPage, useBrowser, waitForToast } from './support/browser.ts';

const harness = useBrowser();
useAutomation('webhook');
const MiB = 1024 * 1024;

async function dashboard(): Promise<{ page: Page; userId: string }> {
  const user = await createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true });
  const page = await harness.signedInPage(user);
  await page.goto('/');
  await expectOnPage(page, '/');
  await page.getByRole('heading', { name: 'Submit New Episode' }).waitFor();
  return { page, userId: user.id };
}

async function openDialog(page: Page) {
  await page.getByRole('button', { name: 'Submit New Episode' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
  await dialog.waitFor();
  return dialog;
}

describe('the upload dialog', () => {
  it('uploads a dropped file and, at both widths, passes axe', async () => {
    const { page } = await dashboard();
    const dialog = await openDialog(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page);
    }
    // Any MP4 does: what is tested is that a drop starts an upload (a small file keeps the copy into the page short).
    const bytes = [...mp4Like(16 * 1024)];
    const transfer = await page.evaluateHandle((content) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(content)], 'dropped.mp4', { type: 'video/mp4' }));
      return data;
    }, bytes);
    const zone = dialog.getByTestId('episode-drop-zone');
    await zone.dispatchEvent('dragover', { dataTransfer: transfer });
    await dialog.getByText('Drop the files to upload them.').waitFor();
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    await waitForToast(page, 'Files Uploaded Successfully!', '1 file(s) uploaded to cloud storage.');
    await dialog.getByText('dropped.mp4', { exact: true }).waitFor();
  });

  it('says an upload continued after a reload is resuming, and the interrupted notice can be dismissed', async () => {
    const { page, userId } = await dashboard();
    // Just over one 6 MiB chunk: the second (stalled) chunk is the upload's last. The file goes in
    // by path: a 13 MiB byte array spread in Node and sent over the protocol took seconds.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'castloop-upload-ui-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'long.mp4');
    await writeFile(file, mp4Like(6 * MiB + 64 * 1024));
    let patches = 0;
    let stalling = true;
    // The second chunk never gets an answer, before and after the reload: the upload stays
    // mid-way, so the resumed upload is seen while it runs.
    await page.route('**/storage/v1/upload/resumable/**', async (route) => {
      if (stalling && route.request().method() === 'PATCH' && ++patches >= 2) return;
      await route.continue();
    });
    let dialog = await openDialog(page);
    await dialog.getByLabel('Choose MP4 files').setInputFiles(file);
    await expect.poll(() => patches, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await page.reload();
    dialog = await openDialog(page);
    await dialog.getByText('Resuming: continuing where this upload stopped.').waitFor({ timeout: 15_000 });
    await expectAccessible(page);
    stalling = false;
    await page.reload();
    await waitForToast(page, 'Files Uploaded Successfully!', '1 file(s) uploaded to cloud storage.');

    // A notice left from another upload (its file no longer held) is dismissed, and stays so.
    await page.evaluate((key) => {
      localStorage.setItem(key, JSON.stringify({ uploaded: [], interrupted: [{ name: 'gone.mp4', size: 5 * 1024 * 1024 }] }));
    }, `castloop.episodeUploads.${userId}`);
    await page.reload();
    dialog = await openDialog(page);
    await dialog.getByText('Interrupted uploads', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Dismiss interrupted uploads' }).click();
    expect(await dialog.getByText('Interrupted uploads', { exact: true }).count()).toBe(0);
    await page.reload();
    dialog = await openDialog(page);
    await dialog.getByLabel('Choose MP4 files').waitFor();
    expect(await dialog.getByText('Interrupted uploads', { exact: true }).count()).toBe(0);
  }, 90_000);
});
