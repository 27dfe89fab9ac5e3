// The admin resubmission console in a real browser: an administrator lands on it, selects a log,
// resubmits and sees the new 'resubmitted' log with its delivery and processing state; a
// subscriber and a visitor see Access Denied.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { withDb } from '../support/stack.ts';
import { createSubmissionLog, uploadEpisodeFile } from '../support/submissions.ts';
import { createUser, type TestUser } from '../support/users.ts';
import { receivedFor, runDeliveries, setActiveAutomation, useAutomation } from '../support/episodes.ts';
import { expectAccessible, expectOnPage, useBrowser, signInAs } from './support/browser.ts';

const harness = useBrowser();
const accessDenied =
  "You don't have permission to access the admin panel. This page is only available to authorized administrators.";

// Resubmissions go to the automation receiver.
useAutomation('webhook');

let admin: TestUser;
let subscriber: TestUser;
let builtinSubscriber: TestUser;
let file: string;

beforeAll(async () => {
  [admin, subscriber, builtinSubscriber] = await Promise.all([createUser('admin'), createUser('onboarded'), createUser('onboarded')]);
  file = await uploadEpisodeFile(subscriber, 'interview.mp4');
  const logId = await createSubmissionLog(subscriber, [file], {
    parameters: { clipStyle: 'DEFAULT', daysBetweenClips: 3, addLogo: false },
  });
  // The built-in worker's outcome for it, as the worker records it.
  await withDb((db) =>
    db.query(
      `insert into public.episode_processing (submission_log_id, user_id, status, failure_reason)
       values ($1, $2, 'failed', 'The video has no audio stream.')`,
      [logId, subscriber.id],
    ),
  );
  // A submission taken by the built-in worker: the outbox stands aside.
  await setActiveAutomation('builtin');
  try {
    await createSubmissionLog(builtinSubscriber, [await uploadEpisodeFile(builtinSubscriber, 'solo.mp4')]);
  } finally {
    await setActiveAutomation('webhook');
  }
});

const signIn = (page: Page, user: TestUser) => signInAs(page, user.email, user.password);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the admin console', () => {
  it('an administrator lands on it, selects a log, resubmits and sees the new resubmitted log', async () => {
    const page = await harness.newPage();
    await signIn(page, admin);
    // No subscription: the administrator's home is the console, not 'Choose Your Plan'.
    await expectOnPage(page, '/admin/episodes/resubmit');
    await page.getByRole('heading', { name: 'Episode Resubmission Admin' }).waitFor();
    // The way back to the console sits in the account menu.
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('link', { name: 'Admin' }).waitFor();
    await page.keyboard.press('Escape');
    const logsOfSubscriber = page.getByRole('button', {
      name: new RegExp(`^Select the submission by ${escape(subscriber.email)}`),
    });
    await logsOfSubscriber.first().waitFor();
    const fileRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: file, exact: true }) });
    await fileRow.waitFor();
    expect(await fileRow.textContent()).toContain('2.01 MB');
    await expectAccessible(page);

    const resubmit = page.getByRole('button', { name: 'Resubmit Episode' });
    expect(await resubmit.isDisabled()).toBe(true);
    await page.getByText('No Files Selected: Please select at least one file to resubmit.').waitFor();
    await page.getByText("Email Required: Please enter the user's email address.").waitFor();

    expect(await logsOfSubscriber.count()).toBe(1);
    expect(await logsOfSubscriber.textContent()).toContain('Processing: Failed: The video has no audio stream.');
    const builtinLog = page.getByRole('button', { name: new RegExp(`^Select the submission by ${escape(builtinSubscriber.email)}`) });
    expect(await builtinLog.textContent()).toContain('Delivery: skipped (built-in processing took it)');
    await logsOfSubscriber.click();
    expect(await page.getByLabel('User email').inputValue()).toBe(subscriber.email);
    await page.getByRole('listitem').filter({ hasText: file }).first().waitFor();
    expect(await page.getByLabel('Days between clips').inputValue()).toBe('3');
    expect(await page.getByLabel('Add logo').isChecked()).toBe(false);
    expect(await page.getByLabel('Add intro/outro').isChecked()).toBe(true);
    await page.getByLabel('Clip style').selectOption('LANDSCAPE');
    await resubmit.click();

    const toast = page.getByTestId('toast').filter({ hasText: 'Resubmission Successful' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Episode successfully resubmitted to an automation webhook');
    await expect.poll(() => logsOfSubscriber.count()).toBe(2);
    const newest = logsOfSubscriber.first();
    expect(await newest.textContent()).toContain('resubmitted');
    // Pending, or already delivered if the every-minute outbox run came first.
    expect(await newest.textContent()).toMatch(/Delivery: (pending|delivered)/);
    expect(await newest.textContent()).toContain('Processing: none (webhook automation)');
    // The form is cleared.
    expect(await page.getByLabel('User email').inputValue()).toBe('');
    expect(await resubmit.isDisabled()).toBe(true);
    await expectAccessible(page);

    const stored = await withDb(async (db) => {
      const { rows } = await db.query(
        `select l.status, l.submission_parameters ->> 'clipStyle' as clip_style, l.original_log_id is not null as has_original,
                d.payload ->> 'event' as event
           from public.submission_logs l join public.webhook_deliveries d on d.submission_log_id = l.id
          where l.user_email = $1 and l.status = 'resubmitted'`,
        [subscriber.email],
      );
      return rows;
    });
    expect(stored).toEqual([
      {
        status: 'resubmitted',
        clip_style: 'LANDSCAPE',
        has_original: true,
        event: 'episode.resubmitted',
      },
    ]);

    // The outbox hands the resubmission to the automation: the receiver gets it once, signed.
    const logId = await withDb(
      async (db) =>
        (await db.query(`select id from public.submission_logs where user_email = $1 and status = 'resubmitted'`, [subscriber.email])).rows[0].id as string,
    );
    expect((await runDeliveries()).status).toBe(200);
    const received = await receivedFor(logId);
    expect(received.map((delivery) => delivery.outcome)).toEqual(['accepted']);
  });

  it('a subscriber sees Access Denied and no admin link', async () => {
    const page = await harness.signedInPage(subscriber);
    await page.goto('/');
    await expectOnPage(page, '/');
    await page.goto('/admin/episodes/resubmit');
    await page.getByRole('alert').filter({ hasText: 'Access Denied' }).waitFor();
    await page.getByText(accessDenied).waitFor();
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: 'Resubmit Episode' }).count()).toBe(0);
    await expectAccessible(page);
  });

  it('a signed-out visitor sees Access Denied', async () => {
    const page = await harness.newPage();
    await page.goto('/admin/episodes/resubmit');
    await page.getByText(accessDenied).waitFor();
    await expectOnPage(page, '/admin/episodes/resubmit');
  });
});
