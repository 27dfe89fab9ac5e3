// The whole product in one browser journey against the production build: register, pay in the
// Stripe sandbox, onboard with generated files, connect Google Drive through the OAuth sandbox,
// submit an episode uploaded with TUS, the automation receiver gets the same bytes, and an
// administrator resubmits it. Every screen gets an axe check and a screenshot kept with the test
// report (test-results/journey/).
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../local/config.ts';
import { eventually, mp4Like, receivedFor, runDeliveries, useAutomation, type ReceivedDelivery } from '../support/episodes.ts';
import { jpegBytes, mp4Bytes, pngBytes } from '../support/media-fixtures.ts';
import { uniqueEmail, withDb } from '../support/stack.ts';
import { signIn as signInClient } from '../support/submissions.ts';
import { createUser } from '../support/users.ts';
import { expectAccessible, expectOnPage, useBrowser, waitForToast } from './support/browser.ts';

const harness = useBrowser();
// The journey follows the hand-off to an external automation (the webhook and its receiver);
// the built-in worker's own path is tests/stack/processing.test.ts.
useAutomation('webhook');
const screenshots = path.join(repoRoot, 'test-results', 'journey');
const password = 'correct-horse-battery';
let shots = 0;

beforeAll(async () => {
  await rm(screenshots, { recursive: true, force: true });
  await mkdir(screenshots, { recursive: true });
});

/** The screen as the user sees it: no serious accessibility violation, and a screenshot kept. */
async function screen(page: Page, name: string): Promise<void> {
  await expectAccessible(page);
  shots += 1;
  await page.screenshot({ path: path.join(screenshots, `${String(shots).padStart(2, '0')}-${name}.png`), fullPage: true });
}

const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });

/** Waits until the receiver has downloaded every file of the delivery of `logId`. */
async function downloadedDelivery(logId: string): Promise<ReceivedDelivery> {
  expect((await runDeliveries()).status).toBe(200);
  return eventually(async () => {
    const [delivery] = await receivedFor(logId);
    return delivery?.files.every((f) => f.status === 'downloaded') ? delivery : undefined;
  });
}

describe('the whole journey', () => {
  it('register -> pay -> onboard -> connect Drive -> submit with TUS -> delivered -> an admin resubmits', async () => {
    const email = uniqueEmail('journey');
    const admin = await createUser('admin');
    const page = await harness.newPage();

    // Register.
    await page.goto('/register');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await screen(page, 'register');
    await page.getByRole('button', { name: 'Create Account' }).click();

    // Pay in the Stripe sandbox.
    await expectOnPage(page, '/subscribe');
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    await screen(page, 'plans');
    await page.getByRole('button', { name: /Choose Growth/ }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await screen(page, 'stripe-checkout');
    await page.getByRole('button', { name: 'Pay' }).click();

    // Onboard with generated files.
    await expectOnPage(page, '/onboarding');
    await page.getByRole('heading', { name: 'Welcome to Castloop, Ada!' }).waitFor();
    await page.getByLabel('Podcast Title *').fill('Engines of Thought');
    await page.getByLabel('Podcast Description *').fill('Conversations about computing.');
    await page.getByLabel('Podcast Author *').fill('Ada Lovelace');
    await page.getByLabel('Primary Category *').selectOption('Technology');
    await page.getByLabel('Brand Font *').selectOption('Roboto');
    await page.getByLabel('Primary Color *').fill('1a2b3c');
    await page.getByLabel('Secondary Color *').fill('aabbcc');
    await page.getByLabel('Tertiary Color *').fill('ffffff');
    await page.getByLabel('Brand Logo *', { exact: true }).setInputFiles(file('logo.png', 'image/png', pngBytes(64, 64)));
    await page.getByLabel('Podcast Artwork *', { exact: true }).setInputFiles(file('cover.jpg', 'image/jpeg', jpegBytes(200, 200)));
    await page.getByLabel('Video Intro', { exact: true }).setInputFiles(file('intro.mp4', 'video/mp4', mp4Bytes(1920, 1080)));
    await page.getByText('10 of 10 required fields complete').waitFor();
    await screen(page, 'onboarding');
    await page.getByRole('button', { name: 'Complete Setup & Go to Dashboard' }).click();
    await expectOnPage(page, '/dashboard');
    const welcome = page.getByRole('dialog', { name: 'Thank you for completing the onboarding!' });
    await welcome.waitFor();
    await screen(page, 'dashboard-welcome');
    await welcome.getByRole('button', { name: 'Got it' }).click();
    await welcome.waitFor({ state: 'hidden' });
    const profile = page.getByRole('region', { name: 'Your Profile' });
    await profile.getByText('Engines of Thought').waitFor();
    await profile.getByText('logo.png').waitFor();

    // Connect Google Drive through the OAuth sandbox.
    const connections = page.getByRole('region', { name: 'Social Media Connections' });
    await connections.getByRole('button', { name: 'Connect Google Drive' }).click();
    const connect = page.getByRole('dialog', { name: 'Connect Google Drive' });
    await connect.getByText("You'll be redirected to Google Drive to authorize access").waitFor();
    await screen(page, 'connect-google-drive');
    await connect.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/oauth\/\w+\/authorize/);
    await screen(page, 'google-consent');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' && url.search === '');
    const driveRow = connections.getByRole('listitem').filter({ hasText: 'Google Drive' });
    await driveRow.getByText('Connected', { exact: true }).waitFor();
    await connections.getByText('All 1 connected platforms are working').waitFor();

    // Submissions wait for the podcast hosting, which an operator sets up and then marks ready.
    const submit = page.getByRole('button', { name: 'Submit New Episode' });
    await submit.click();
    let dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
    await dialog.getByRole('button', { name: 'Hosting Setup Required' }).waitFor();
    await screen(page, 'submit-waiting-for-hosting');
    const operator = await signInClient(admin);
    const { error: markError } = await operator.client.rpc('admin_mark_hosting_ready', { p_email: email });
    expect(markError).toBeNull();

    // Submit an episode uploaded with TUS.
    await page.reload();
    await page.getByText('0 / 2 used').waitFor();
    await screen(page, 'dashboard-ready');
    const tusRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/storage/v1/upload/resumable')) tusRequests.push(request.method());
    });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'castloop-journey-'));
    const bytes = mp4Like(2 * 1024 * 1024); // submissions are checked to start as an MP4
    const episodeFile = path.join(dir, 'Pilot-Episode.mp4');
    await writeFile(episodeFile, bytes);
    await submit.click();
    dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
    await dialog.getByLabel('Choose MP4 files').setInputFiles(episodeFile);
    await waitForToast(page, 'Files Uploaded Successfully!', '1 file(s) uploaded to cloud storage.');
    expect(tusRequests).toContain('POST');
    expect(tusRequests).toContain('PATCH');
    await dialog.getByLabel('Clip style').selectOption('CREATIVE');
    await screen(page, 'submit-episode');
    const submitted = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/episodes/submit-direct-storage');
    await dialog.getByRole('button', { name: 'Submit Episode' }).click();
    expect((await submitted).status()).toBe(201);
    await waitForToast(page, 'Episode Submitted Successfully!');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Pilot-Episode').waitFor();
    await page.getByText('1 / 2 used').waitFor();
    await screen(page, 'dashboard-submitted');

    // The delivery reaches the automation receiver with the same bytes.
    const { userId, logId } = await withDb(async (db) => {
      const { rows } = await db.query(
        `select l.id, l.user_id from public.submission_logs l join auth.users u on u.id = l.user_id where u.email = $1`,
        [email],
      );
      expect(rows).toHaveLength(1);
      return { userId: rows[0].user_id as string, logId: rows[0].id as string };
    });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const delivered = await downloadedDelivery(logId);
    expect(delivered.outcome).toBe('accepted');
    expect(delivered.files.map((f) => [f.bytes, f.sha256])).toEqual([[bytes.length, sha256]]);
    // What the user paid for and onboarded with travels with it.
    expect(delivered.body).toMatchObject({
      event: 'episode.submitted',
      subscriptionTier: 'growth',
      brandKit: { podcastTitle: 'Engines of Thought', brandFont: 'Roboto' },
    });
    expect(Object.keys(delivered.body?.brandKit.assets ?? {}).sort()).toEqual(['logo', 'podcastCover', 'videoIntro']);

    // An administrator resubmits it from the console.
    const adminPage = await harness.newPage();
    await adminPage.goto('/login');
    await adminPage.getByLabel('Email').fill(admin.email);
    await adminPage.getByLabel('Password').fill(admin.password);
    await screen(adminPage, 'login');
    await adminPage.getByRole('button', { name: 'Sign In' }).click();
    await expectOnPage(adminPage, '/admin/episodes/resubmit');
    const logOfJourney = adminPage.getByRole('button', { name: new RegExp(`^Select the submission by ${email.replace(/[.+]/g, '\\$&')}`) });
    await logOfJourney.first().waitFor();
    await logOfJourney.first().click();
    expect(await adminPage.getByLabel('User email').inputValue()).toBe(email);
    await adminPage.getByLabel('Clip style').selectOption('LANDSCAPE');
    await screen(adminPage, 'admin-resubmit');
    await adminPage.getByRole('button', { name: 'Resubmit Episode' }).click();
    await adminPage.getByTestId('toast').filter({ hasText: 'Resubmission Successful' }).waitFor();
    await expect.poll(() => logOfJourney.count()).toBe(2);
    expect(await logOfJourney.first().textContent()).toContain('resubmitted');
    await screen(adminPage, 'admin-resubmitted');

    const resubmittedId = await withDb(
      async (db) =>
        (await db.query(`select id from public.submission_logs where user_id = $1 and status = 'resubmitted' and original_log_id = $2`, [userId, logId]))
          .rows[0].id as string,
    );
    const redelivered = await downloadedDelivery(resubmittedId);
    expect(redelivered.outcome).toBe('accepted');
    expect(redelivered.body).toMatchObject({ event: 'episode.resubmitted' });
    expect(redelivered.files.map((f) => [f.bytes, f.sha256])).toEqual([[bytes.length, sha256]]);
    await rm(dir, { recursive: true, force: true });
  }, 120_000);
});
