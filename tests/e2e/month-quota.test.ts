// A subscriber's month without surprises, in Chromium at 1280 and 390 px (issue 26, items 5 and
// 9): trim times checked against the video's length in the dialog, a failed episode that shows
// why, gives its slot back and can be retried, and hosting setup that the subscriber can see
// begin and an administrator can end from the admin console. Each journey runs once, at 390 px
// (the narrow screen, where a control can be pushed out of reach), and every screen it checks is
// checked at both widths.
import { describe, expect, it } from 'vitest';
import { mp4Bytes } from '../support/media-fixtures.ts';
import { tokenOf, uploadEpisodeFile, useAutomation } from '../support/episodes.ts';
import { withDb } from '../support/stack.ts';
import { createUser } from '../support/users.ts';
import { expectOnPage, expectScreenAtBothWidths, narrowScreen, useBrowser, waitForToast } from './support/browser.ts';

const harness = useBrowser();
// The retried episode waits at the webhook, so what the dashboard shows after the retry holds
// still (the built-in worker would process, and fail, the made-up video at once).
useAutomation('webhook');

const failureReason = 'The start time 9:05:07 is past the end of the video.';

const episodesOf = (userId: string) =>
  withDb(async (db) => (await db.query('select count(*)::int as n from public.episodes where user_id = $1', [userId])).rows[0].n as number);

describe('a month without surprises', () => {
  it('the dialog refuses a start past the end of a 45 s video; a failed episode shows why, frees the month and is retried', async () => {
    const user = await createUser('onboarded', { tier: 'starter', drive: 'connected', hostingReady: true });
    // A failed episode from earlier this month, its video still stored.
    const stored = await uploadEpisodeFile({ id: user.id, token: await tokenOf(user) }, 0, 'Interview.mp4', Buffer.from(mp4Bytes(320, 180, { durationSeconds: 45 })) as Buffer<ArrayBuffer>);
    await withDb(async (db) => {
      const episode = await db.query(
        `insert into public.episodes (user_id, title, files, start_timestamp, submitted_at) values ($1, 'Interview', array[$2], '9:05:07', now() - interval '1 minute') returning id`,
        [user.id, stored.path],
      );
      const log = await db.query(
        `insert into public.submission_logs (episode_id, user_id, user_email, object_storage_files, submitted_at)
         values ($1, $2, $3, array[$4], now() - interval '1 minute') returning id`,
        [episode.rows[0].id, user.id, user.email, stored.path],
      );
      await db.query(
        `insert into public.episode_processing (submission_log_id, episode_id, user_id, status, failure_reason) values ($1, $2, $3, 'failed', $4)`,
        [log.rows[0].id, episode.rows[0].id, user.id, failureReason],
      );
    });

    const page = await harness.signedInPage(user);
    page.setDefaultTimeout(15_000);
    await page.setViewportSize(narrowScreen);
    await page.goto('/');
    await expectOnPage(page, '/');

    // The failed episode neither uses the month nor counts as processed, and says why.
    await page.getByText('0 / 1 used').waitFor();
    await page.getByText('0 total processed').waitFor();
    const recent = page.getByRole('region', { name: 'Recent Episodes' });
    await recent.getByText(`Failed: ${failureReason}`).waitFor();
    const retry = recent.getByRole('button', { name: 'Retry Interview' });
    await retry.waitFor();
    await expectScreenAtBothWidths(page);

    // A new 45 s video with a start past its end: refused in the dialog, before anything is submitted.
    await page.getByRole('button', { name: 'Submit New Episode' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
    await dialog.getByLabel('Choose MP4 files').setInputFiles({
      name: 'short.mp4',
      mimeType: 'video/mp4',
      buffer: Buffer.from(mp4Bytes(320, 180, { durationSeconds: 45 })),
    });
    await waitForToast(page, 'Files Uploaded Successfully!', '1 file(s) uploaded to cloud storage.');
    await dialog.getByText('Your video is 00:00:45 long: the start time must be before its end.').waitFor();
    await dialog.getByLabel('Start timestamp (hh:mm:ss)').fill('9:05:07');
    await dialog.getByRole('button', { name: 'Submit Episode' }).click();
    await dialog.getByText('The start time 9:05:07 is past the end of the video (00:00:45 long).').waitFor();
    expect(await dialog.getByLabel('Start timestamp (hh:mm:ss)').getAttribute('aria-invalid')).toBe('true');
    // Start after end is refused too.
    await dialog.getByLabel('Start timestamp (hh:mm:ss)').fill('00:00:20');
    await dialog.getByLabel('End timestamp (hh:mm:ss)').fill('00:00:10');
    await dialog.getByRole('button', { name: 'Submit Episode' }).click();
    await dialog.getByText('The end time must be after the start time.').waitFor();
    await expectScreenAtBothWidths(page);
    expect(await episodesOf(user.id)).toBe(1);
    // Closed from the keyboard, and the pointer moved off: a toast under the pointer stays (spec),
    // and toasts come one at a time.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.mouse.move(1, narrowScreen.height - 1);

    // Retry: queued again, and now it uses the month's only episode.
    await retry.click();
    await waitForToast(page, 'Episode Queued Again', "Interview is back in the processing queue. It counts toward this month's episodes.");
    await page.getByText('1 / 1 used').waitFor();
    await page.getByText('Monthly limit reached. Your plan allows 1 episode(s) per month.').waitFor();
    await expect.poll(() => recent.getByRole('button', { name: 'Retry Interview' }).count()).toBe(0);
    expect(await episodesOf(user.id)).toBe(1);
  });

  it('the subscriber sees when hosting setup began; an administrator marks it ready and starts it again', async () => {
    const subscriber = await createUser('onboarded', { drive: 'connected' });
    await withDb((db) => db.query(`update public.profiles set hosting_setup_started_at = now() - interval '2 days' where id = $1`, [subscriber.id]));
    const admin = await createUser('admin');

    const page = await harness.signedInPage(subscriber);
    page.setDefaultTimeout(15_000);
    await page.setViewportSize(narrowScreen);
    await page.goto('/');
    await expectOnPage(page, '/');
    const box = page.getByTestId('gating-box');
    await box.getByText('Hosting setup started 2 days ago.').waitFor();
    await box.getByText(/^Your podcast hosting is being configured/).waitFor();
    await expectScreenAtBothWidths(page);

    const adminPage = await harness.signedInPage(admin);
    adminPage.setDefaultTimeout(15_000);
    await adminPage.setViewportSize(narrowScreen);
    await adminPage.goto('/admin/episodes/resubmit');
    await expectOnPage(adminPage, '/admin/episodes/resubmit');
    await adminPage.getByRole('navigation', { name: 'Admin pages' }).getByRole('link', { name: 'Hosting setup' }).click();
    await expectOnPage(adminPage, '/admin/hosting');
    await adminPage.getByRole('heading', { name: 'Hosting Setup', level: 1 }).waitFor();
    const row = adminPage.getByRole('listitem').filter({ hasText: subscriber.email });
    await row.getByText(/^Setup started: 2 days ago \(/).waitFor();
    await row.getByText(/Plan: growth/).waitFor();
    await expectScreenAtBothWidths(adminPage);

    await row.getByRole('button', { name: `Mark hosting ready for ${subscriber.email}` }).click();
    await waitForToast(adminPage, 'Hosting Ready', `Hosting is ready for ${subscriber.email}: they can submit episodes now.`);
    await expect.poll(() => adminPage.getByRole('listitem').filter({ hasText: subscriber.email }).count()).toBe(0);

    await page.reload();
    await page.getByRole('heading', { name: 'Submit New Episode' }).waitFor();
    await expect.poll(() => page.getByTestId('gating-box').count()).toBe(0);

    // Started again: back on the list, and the subscriber waits again.
    await adminPage.getByLabel('Subscriber email').fill(subscriber.email);
    await adminPage.getByRole('button', { name: 'Start hosting setup' }).click();
    await waitForToast(adminPage, 'Hosting Setup Started', `Hosting setup started for ${subscriber.email}: submissions wait until it is marked ready.`);
    await adminPage.getByRole('listitem').filter({ hasText: subscriber.email }).getByText(/^Setup started: just now/).waitFor();
    await expectScreenAtBothWidths(adminPage);

    await page.reload();
    await page.getByTestId('gating-box').getByText('Hosting setup started just now.').waitFor();

    const audit = await withDb(async (db) =>
      (await db.query(`select admin_id, details from public.admin_audit_log where target_user_id = $1 and action = 'hosting.mark_ready' order by id`, [subscriber.id])).rows,
    );
    expect(audit).toEqual([
      { admin_id: admin.id, details: { ready: true } },
      { admin_id: admin.id, details: { ready: false } },
    ]);

    // A subscriber who opens the console is told it is not theirs.
    await page.goto('/admin/hosting');
    await page.getByText("You don't have permission to access the admin panel. This page is only available to authorized administrators.").waitFor();
  });
});
