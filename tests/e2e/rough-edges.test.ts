// The walk's rough edges of issue 43 (item 5), each at 1280 and 390 px with axe: the dashboard
// says when a reload interrupted an upload (without opening the dialog); Escape closes the colour
// picker from its swatch button; no admin tabs beside Access Denied; an admin log line says
// "Processing" once; 'Refresh Data' looks like a button; the Platform Introduction card plays
// its default video, with captions.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { mp4Like, useAutomation } from '../support/episodes.ts';
import { withDb } from '../support/stack.ts';
import { createSubmissionLog, uploadEpisodeFile } from '../support/submissions.ts';
import { createUser, type TestUser } from '../support/users.ts';
import { expectOnPage, expectScreenAtBothWidths, useBrowser, webUrl } from './support/browser.ts';

const harness = useBrowser();
useAutomation('webhook');
const MiB = 1024 * 1024;
const accessDenied =
  "You don't have permission to access the admin panel. This page is only available to authorized administrators.";

let newSubscriber: TestUser;
let subscriber: TestUser;
let admin: TestUser;

beforeAll(async () => {
  [newSubscriber, subscriber, admin] = await Promise.all([
    createUser('subscribed'),
    createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true }),
    createUser('admin'),
  ]);
});

describe('the dashboard after a reload mid-upload', () => {
  it('says the upload goes on by itself, or that it waits for its file, without opening the dialog', async () => {
    const page = await harness.signedInPage(subscriber);
    await page.goto('/');
    await expectOnPage(page, '/');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'castloop-rough-edges-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'long.mp4');
    await writeFile(file, mp4Like(6 * MiB + 64 * 1024));
    // The second chunk never gets an answer: the upload stays mid-way across the reload.
    let patches = 0;
    await page.route('**/storage/v1/upload/resumable/**', async (route) => {
      if (route.request().method() === 'PATCH' && ++patches >= 2) return;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Submit New Episode' }).click();
    await page.getByRole('dialog', { name: 'Submit New Episode' }).getByLabel('Choose MP4 files').setInputFiles(file);
    await expect.poll(() => patches, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await page.reload();

    const notice = page.getByTestId('background-uploads');
    await notice.getByText('Your upload of long.mp4 was interrupted by the reload and is continuing where it stopped.').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('dialog', { name: 'Submit New Episode' }).isVisible()).toBe(false);
    await expectScreenAtBothWidths(page);
    await notice.getByRole('button', { name: 'Show uploads' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
    await dialog.getByText('Resuming: continuing where this upload stopped.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    // An upload whose file is no longer held (a closed browser) waits for the same file.
    await page.evaluate((key) => {
      localStorage.setItem(key, JSON.stringify({ uploaded: [], interrupted: [{ name: 'gone.mp4', size: 5 * 1024 * 1024 }] }));
    }, `castloop.episodeUploads.${subscriber.id}`);
    await page.reload();
    await notice
      .getByText('Your upload of gone.mp4 was interrupted. Open Submit New Episode and choose the same file again to resume it.')
      .waitFor();
    await expectScreenAtBothWidths(page);
  }, 90_000);
});

describe('onboarding', () => {
  it('closes the colour picker with Escape while its swatch button has focus, has a Refresh Data button, and plays the intro video', async () => {
    const page = await harness.signedInPage(newSubscriber);
    await page.goto('/onboarding');
    await expectOnPage(page, '/onboarding');
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(viewport);
      const toggle = page.getByRole('button', { name: 'Pick primary color' });
      await toggle.click();
      const picker = page.getByRole('dialog', { name: 'Primary Color' });
      await picker.waitFor();
      expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.keyboard.press('Escape');
      await picker.waitFor({ state: 'detached' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);
    }

    // 'Refresh Data' is drawn as a button: a visible border, not text on the card.
    const refresh = page.getByRole('button', { name: 'Refresh Data' });
    const border = await refresh.evaluate((element) => {
      const style = getComputedStyle(element);
      return { width: style.borderTopWidth, style: style.borderTopStyle, color: style.borderTopColor };
    });
    expect(border.style).not.toBe('none');
    expect(parseFloat(border.width)).toBeGreaterThan(0);
    expect(border.color).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);

    // The Platform Introduction card plays the app's own video, with its narration as captions.
    const intro = page.getByRole('region', { name: 'Platform Introduction' });
    const video = intro.getByLabel('Platform Introduction video');
    await video.scrollIntoViewIfNeeded();
    const failure = () => video.evaluate((element: HTMLVideoElement) => element.error?.code ?? null);
    await expect
      .poll(
        async () => {
          expect(await failure(), 'the video failed to load').toBeNull();
          return video.evaluate((element: HTMLVideoElement) => element.readyState >= 1 && (element.textTracks[0]?.cues?.length ?? 0) > 0);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const loaded = await video.evaluate((element: HTMLVideoElement) => ({
      duration: element.duration,
      width: element.videoWidth,
      cues: element.textTracks[0].cues?.length ?? 0,
      mode: element.textTracks[0].mode,
    }));
    expect(loaded.duration).toBeGreaterThan(20);
    expect(loaded.width).toBe(640);
    expect(loaded.cues).toBe(5);
    expect(loaded.mode).toBe('showing');
    const answer = await fetch(new URL(await video.getAttribute('src') ?? '', webUrl));
    expect(answer.headers.get('content-type')).toBe('video/mp4');
    await expectScreenAtBothWidths(page);
  }, 60_000);
});

describe('the admin console', () => {
  it('shows no admin tabs beside Access Denied', async () => {
    const page = await harness.signedInPage(subscriber);
    for (const address of ['/admin/episodes/resubmit', '/admin/hosting']) {
      await page.goto(address);
      await page.getByText(accessDenied).waitFor();
      expect(await page.getByRole('navigation', { name: 'Admin pages' }).count()).toBe(0);
      await expectScreenAtBothWidths(page);
    }
  });

  it('says "Processing" once in a log line while the worker is at it', async () => {
    const file = await uploadEpisodeFile(subscriber, 'working.mp4');
    const logId = await createSubmissionLog(subscriber, [file]);
    await withDb((db) =>
      db.query(
        `insert into public.episode_processing (submission_log_id, user_id, status, stage, progress)
         values ($1, $2, 'processing', 'uploading to Google Drive', 80)`,
        [logId, subscriber.id],
      ),
    );
    const page = await harness.signedInPage(admin);
    await page.goto('/admin/episodes/resubmit');
    await page.getByRole('navigation', { name: 'Admin pages' }).waitFor();
    const log = page.getByRole('button', { name: new RegExp(`^Select the submission by ${subscriber.email.replace(/[.+]/g, '\\$&')}`) }).first();
    await log.waitFor();
    expect(await log.textContent()).toContain('Processing: uploading to Google Drive (80%)');
    expect(await log.textContent()).not.toContain('Processing: Processing');
    await expectScreenAtBothWidths(page);
  });
});
