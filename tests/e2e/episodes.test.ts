// The dashboard and the Submit New Episode dialog in a real browser: resumable uploads with
// visible progress, submission, delivery to the automation receiver, resume after a reload,
// the monthly limit reached by a real submission, the header menu, Quick Actions and a
// logged-out visit. The dialog's banner and button for each block reason, and Recent Episodes'
// processing states, are component tests beside them (submit-episode-dialog.test.tsx,
// recent-episodes.test.tsx), with the API's side in tests/functions/episodes-api.test.ts.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { config, withDb } from '../support/stack.ts';
import { createUser, type TestUser, type UserOptions } from '../support/users.ts';
import { eventually, mp4Like, receivedFor, runDeliveries, submitEpisode, tokenOf, uploadEpisodeFile, useAutomation } from '../support/episodes.ts';
import { expectAccessible, expectOnPage, useBrowser, waitForToast, webUrl } from './support/browser.ts';

const harness = useBrowser();
// Submissions here go to the automation receiver; the processing states are set directly.
useAutomation('webhook');
const MiB = 1024 * 1024;

async function mp4File(name: string, size: number): Promise<{ file: string; sha256: string; size: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'castloop-episodes-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const bytes = mp4Like(size); // submissions are checked to start as an MP4
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return { file, sha256: createHash('sha256').update(bytes).digest('hex'), size };
}

async function signedInDashboard(options: UserOptions = {}): Promise<{ page: Page; user: TestUser }> {
  const user = await createUser('onboarded', options);
  const page = await harness.signedInPage(user);
  await page.goto('/');
  await expectOnPage(page, '/');
  await page.getByRole('heading', { name: 'Submit New Episode' }).waitFor();
  return { page, user };
}

async function openDialog(page: Page) {
  await page.getByRole('button', { name: 'Submit New Episode' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
  await dialog.waitFor();
  return dialog;
}

const logIdOf = (userId: string) =>
  withDb(async (db) => (await db.query('select id from public.submission_logs where user_id = $1', [userId])).rows.map((row) => row.id as string));

describe('submitting an episode', () => {
  it('uploads two MP4s with progress, submits, shows it in Recent Episodes, and the receiver gets the same bytes', async () => {
    const { page, user } = await signedInDashboard({ tier: 'growth', drive: 'connected', hostingReady: true });
    await page.getByText('0 / 2 used').waitFor();
    await page.getByText('No episodes submitted yet').waitFor();
    await expectAccessible(page);

    const dialog = await openDialog(page);
    await expectAccessible(page);
    const first = await mp4File('Season-Opener.mp4', 7 * MiB);
    const second = await mp4File('bonus.mp4', 300 * 1024);
    await dialog.getByLabel('Choose MP4 files').setInputFiles([first.file, second.file]);
    await dialog.getByRole('progressbar', { name: 'Upload progress of Season-Opener.mp4' }).waitFor();
    await dialog.getByRole('progressbar', { name: 'Overall upload progress' }).waitFor();
    await waitForToast(page, 'Files Uploaded Successfully!', '2 file(s) uploaded to cloud storage.');
    expect(await dialog.getByRole('progressbar', { name: 'Overall upload progress' }).getAttribute('value')).toBe('100');
    await expect.poll(() => dialog.getByText('Uploaded').count()).toBe(2);

    await dialog.getByLabel('Start timestamp (hh:mm:ss)').fill('0:00:10');
    await dialog.getByLabel('End timestamp (hh:mm:ss)').fill('99:00');
    await dialog.getByLabel('Clip style').selectOption('CREATIVE');
    await dialog.getByLabel('Days between clips (1-30)').fill('45');
    await dialog.getByLabel('Add logo').uncheck();
    await dialog.getByRole('button', { name: 'Submit Episode' }).click();
    await dialog.getByText('Must be in hh:mm:ss format').waitFor();
    expect(await dialog.getByLabel('Days between clips (1-30)').inputValue()).toBe('1');
    await expectAccessible(page);
    await dialog.getByLabel('End timestamp (hh:mm:ss)').fill('00:20:00');
    await dialog.getByRole('button', { name: 'Submit Episode' }).click();

    await waitForToast(page, 'Episode Submitted Successfully!', "Your episode files have been sent to processing. You'll receive updates via email.");
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Season-Opener').waitFor();
    await page.getByText('just now').waitFor();
    await page.getByText('1 / 2 used').waitFor();

    const [logId] = await logIdOf(user.id);
    const params = await withDb(async (db) => (await db.query('select submission_parameters from public.submission_logs where id = $1', [logId])).rows[0].submission_parameters);
    expect(params).toMatchObject({ startTimestamp: '0:00:10', endTimestamp: '00:20:00', clipStyle: 'CREATIVE', daysBetweenClips: 1, addLogo: false, addIntroOutro: true });

    await runDeliveries();
    const delivery = await eventually(async () => {
      const [d] = await receivedFor(logId);
      return d?.files.every((f) => f.status === 'downloaded') ? d : undefined;
    });
    expect(await receivedFor(logId)).toHaveLength(1);
    expect(delivery.outcome).toBe('accepted');
    expect(delivery.files.map((f) => [f.bytes, f.sha256])).toEqual([
      [first.size, first.sha256],
      [second.size, second.sha256],
    ]);
  });

  it('an upload interrupted by a reload goes on by itself, without choosing the file again, sending no stored chunk twice', async () => {
    const { page, user } = await signedInDashboard({ tier: 'growth', drive: 'connected', hostingReady: true });
    // Three chunks: the stored first, then two sent after the reload (their order is checked).
    const big = await mp4File('reloaded-episode.mp4', 13 * MiB);
    let patches = 0;
    let stalling = true;
    // The second chunk never reaches the server: the upload is mid-way when the page reloads,
    // and the server holds exactly the first chunk.
    await page.route('**/storage/v1/upload/resumable/**', async (route) => {
      if (stalling && route.request().method() === 'PATCH' && ++patches >= 2) return;
      await route.continue();
    });
    const dialog = await openDialog(page);
    await dialog.getByLabel('Choose MP4 files').setInputFiles(big.file);
    await expect.poll(() => patches, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);

    stalling = false;
    const offsets: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') offsets.push(Number(request.headers()['upload-offset']));
    });
    await page.reload();
    // No file is chosen after the reload: the upload finishes on its own.
    await waitForToast(page, 'Files Uploaded Successfully!', '1 file(s) uploaded to cloud storage.');
    // The server had the first chunk; everything after it was sent once, in order.
    expect(offsets).toEqual([6 * MiB, 12 * MiB]);

    const reopened = await openDialog(page);
    await reopened.getByText('Uploaded').waitFor();
    expect(await reopened.getByText('Interrupted uploads', { exact: true }).count()).toBe(0);
    const [stored] = await withDb(async (db) =>
      (await db.query(`select name from storage.objects where bucket_id = 'episodes' and name like $1`, [`${user.id}/%`])).rows.map((row) => row.name as string),
    );
    const response = await fetch(`${config.urls.api}/storage/v1/object/episodes/${stored}`, { headers: { Authorization: `Bearer ${await tokenOf(user)}` } });
    expect(response.status).toBe(200);
    expect(createHash('sha256').update(Buffer.from(await response.arrayBuffer())).digest('hex')).toBe(big.sha256);
  });

  it('after a closed browser (the held file is gone) the dialog asks for the same file and resumes from where it stopped', async () => {
    const { page: first, user } = await signedInDashboard({ tier: 'growth', drive: 'connected', hostingReady: true });
    const big = await mp4File('long-episode.mp4', 13 * MiB);
    let patches = 0;
    // The connection dies during the second chunk: its request never gets an answer.
    await first.route('**/storage/v1/upload/resumable/**', async (route) => {
      if (route.request().method() === 'PATCH' && ++patches >= 2) return;
      await route.continue();
    });
    let dialog = await openDialog(first);
    await dialog.getByLabel('Choose MP4 files').setInputFiles(big.file);
    await expect.poll(() => patches, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);

    // A new browser with the same profile data (session, local storage) but no service worker.
    const storageState = await first.context().storageState();
    await first.context().close();
    const context = await harness.browser().newContext({ baseURL: webUrl, storageState });
    onTestFinished(() => context.close());
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Submit New Episode' }).waitFor();
    dialog = await openDialog(page);
    await dialog.getByText('Interrupted uploads', { exact: true }).waitFor();
    await dialog.getByText('long-episode.mp4').first().waitFor();

    const offsets: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') offsets.push(Number(request.headers()['upload-offset']));
    });
    await dialog.getByLabel('Choose MP4 files').setInputFiles(big.file);
    await page.getByText('Files Uploaded Successfully!').waitFor({ timeout: 30_000 });
    // It went on from what the server had (at least the first chunk): nothing stored was sent again.
    expect(offsets[0]).toBeGreaterThanOrEqual(6 * MiB);
    expect(offsets[0]).toBeLessThan(big.size);
    await dialog.getByRole('button', { name: 'Submit Episode' }).click();
    await page.getByText('Episode Submitted Successfully!', { exact: false }).waitFor();

    const [logId] = await logIdOf(user.id);
    await runDeliveries();
    const delivery = await eventually(async () => {
      const [d] = await receivedFor(logId);
      return d?.files[0]?.status === 'downloaded' ? d : undefined;
    });
    expect(delivery.files[0]).toMatchObject({ bytes: big.size, sha256: big.sha256 });
  });
  it("cancels an unfinished upload, removes a finished one, and refuses to submit nothing: 'No Files Uploaded'", async () => {
    const { page, user } = await signedInDashboard({ tier: 'growth', drive: 'connected', hostingReady: true });
    const stalled = await mp4File('stalled.mp4', 13 * MiB);
    const done = await mp4File('done.mp4', 100 * 1024);
    let patches = 0;
    await page.route('**/storage/v1/upload/resumable/**', async (route) => {
      if (route.request().method() === 'PATCH' && ++patches >= 2) return;
      await route.continue();
    });
    const dialog = await openDialog(page);
    await dialog.getByLabel('Choose MP4 files').setInputFiles(stalled.file);
    await expect.poll(() => patches, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await dialog.getByRole('button', { name: 'Cancel upload of stalled.mp4' }).click();
    await dialog.getByRole('progressbar', { name: 'Upload progress of stalled.mp4' }).waitFor({ state: 'detached' });
    await page.unrouteAll({ behavior: 'ignoreErrors' });

    await dialog.getByLabel('Choose MP4 files').setInputFiles(done.file);
    await waitForToast(page, 'Files Uploaded Successfully!', '1 file(s) uploaded to cloud storage.');
    await dialog.getByRole('button', { name: 'Remove done.mp4' }).click();
    await dialog.getByRole('progressbar', { name: 'Upload progress of done.mp4' }).waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Submit Episode' }).click();
    await waitForToast(page, 'No Files Uploaded', 'Please upload at least one video file before submitting.');

    // Neither file is left in storage: the cancelled upload never became an object, the removed one was deleted.
    await expect
      .poll(() => withDb(async (db) => (await db.query(`select count(*)::int as n from storage.objects where bucket_id = 'episodes' and name like $1`, [`${user.id}/%`])).rows[0].n))
      .toBe(0);
    expect((await withDb((db) => db.query('select count(*)::int as n from public.episodes where user_id = $1', [user.id]))).rows[0].n).toBe(0);
  });
});

describe('the monthly limit on the dashboard and in the dialog', () => {
  it("starter plan after one episode: the orange box, 'Monthly Limit Reached' and a disabled button", async () => {
    const user = await createUser('onboarded', { tier: 'starter', drive: 'connected', hostingReady: true });
    const token = await tokenOf(user);
    const submitter = { ...user, token };
    expect((await submitEpisode(submitter, [(await uploadEpisodeFile(submitter)).path])).status).toBe(201);

    const page = await harness.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectOnPage(page, '/');
    await page.getByText('Monthly limit reached. Your plan allows 1 episode(s) per month.').waitFor();
    await page.getByText('1 / 1 used').waitFor();
    const dialog = await openDialog(page);
    await dialog.getByText('Monthly episode submission limit reached. Please upgrade your plan to submit more episodes.').waitFor();
    const button = dialog.getByRole('button', { name: 'Monthly Limit Reached' });
    expect(await button.isDisabled()).toBe(true);
    await expectAccessible(page);
  });
});

describe('dashboard shell', () => {
  it('header menu, Setup Progress, and Contact Support copying the address', async () => {
    const { page } = await signedInDashboard({ drive: 'connected', hostingReady: true });
    await page.getByText('v1.0').waitFor();
    await page.getByRole('region', { name: 'Setup Progress' }).getByText('No social accounts connected yet').waitFor();
    const menu = page.getByRole('button', { name: /^Account menu: Test onboarded/ });
    await menu.click();
    await page.getByRole('button', { name: 'Manage Subscription', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Join Premium Community' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('link', { name: 'Join Premium Community' }).count()).toBe(0);

    // A browser without the Clipboard API (e.g. an insecure origin): the address is shown instead.
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
    await page.getByRole('button', { name: /Contact Support/ }).click();
    await waitForToast(page, 'Contact Support', /^Write to us at .+@/);

    await page.reload();
    await page.getByRole('heading', { name: 'Submit New Episode' }).waitFor();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: /Contact Support/ }).click();
    await page.getByText(/Support email copied/).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/@/);

    await page.getByRole('button', { name: /Manage Subscription.*Update billing and plan/ }).click();
    await expectOnPage(page, '/subscribe');
  });

  it("a logged-out visit to /dashboard toasts 'Unauthorized' and ends on /login", async () => {
    const page = await harness.newPage();
    await page.goto('/dashboard');
    await page.getByText('Unauthorized').waitFor();
    await expectOnPage(page, '/login');
  });
});
