// The e-mails the product promises (issue 43, item 1), read from the local stack's mailbox: each
// event sends its e-mail once (a further run of the sender sends nothing more), with the product's
// name and links that work when followed: the episode page opens, the dashboard answers, and the
// unsubscribe link (the page, at 1280 and 390 px with axe, and the one-click POST of its
// List-Unsubscribe header) stops that kind of e-mail while the essential ones still arrive.
import { describe, expect, it } from 'vitest';
import { runCronJobNow } from '../../local/cron/scheduler.ts';
import { readySubmitter, submitEpisode, uploadEpisodeFile, useAutomation, type Submitter } from '../support/episodes.ts';
import { headersOf, linkIn, mailsTo, waitForMailTo, type MailboxEmail } from '../support/mailbox.ts';
import { config, withDb } from '../support/stack.ts';
import { expectScreenAtBothWidths, useBrowser, webUrl } from './support/browser.ts';

const harness = useBrowser();
// The submission goes to the automation receiver: processing's outcomes are written below as the
// worker writes them (its state changes are the events).
useAutomation('webhook');

const subjects = {
  hostingReady: 'Your podcast hosting is ready',
  received: (title: string) => `We received "${title}"`,
  allowance: "You have used this month's episodes",
  review: (title: string) => `"${title}" is ready for your review`,
  failed: (title: string) => `"${title}" could not be processed`,
  reconnect: 'Reconnect Google Drive to keep Castloop working',
};

/** An episode of the subscriber's as an administrator's tools write one (no monthly limit), with a log. */
async function addEpisode(owner: Submitter, title: string, file: string): Promise<string> {
  return withDb(async (db) => {
    const { rows } = await db.query(`insert into public.episodes (user_id, title, files) values ($1, $2, array[$3]) returning id`, [owner.id, title, file]);
    await db.query(
      `insert into public.submission_logs (episode_id, user_id, user_email, object_storage_files, status) values ($1, $2, $3, array[$4], 'delivered')`,
      [rows[0].id, owner.id, owner.email, file],
    );
    return rows[0].id as string;
  });
}

/** The built-in worker's outcome for the episode's latest log: processing, then delivered (held for review) or failed. */
async function processed(episodeId: string, outcome: 'delivered' | 'failed'): Promise<void> {
  await withDb(async (db) => {
    await db.query(
      `insert into public.episode_processing (submission_log_id, episode_id, user_id, status)
       select l.id, l.episode_id, l.user_id, 'processing' from public.submission_logs l where l.episode_id = $1
       order by l.submitted_at desc limit 1`,
      [episodeId],
    );
    await db.query(
      outcome === 'delivered'
        ? `update public.episode_processing set status = 'delivered', review_hold = 'title', finished_at = now(),
                  drive_folder_url = 'https://drive.google.com/drive/folders/folder-' || episode_id where episode_id = $1`
        : `update public.episode_processing set status = 'failed', failure_permanent = true,
                  failure_reason = 'take.mp4 has no video stream' where episode_id = $1`,
      [episodeId],
    );
  });
}

/** A further run of the sender, then every e-mail to `address` by subject: how many of each. */
async function countsAfterAnotherRun(address: string): Promise<Record<string, number>> {
  await runCronJobNow(config, 'send-emails');
  const counts: Record<string, number> = {};
  for (const mail of await mailsTo(address)) counts[mail.subject] = (counts[mail.subject] ?? 0) + 1;
  return counts;
}

const unsubscribeLink = (mail: MailboxEmail) => linkIn(mail, 'Unsubscribe from these e-mails');

describe('transactional e-mail', () => {
  it('sends each e-mail once per event, with the links it promises, and stops a kind once unsubscribed', async () => {
    // Hosting ready: the ready subscriber's first event.
    const owner = await readySubmitter({ tier: 'starter' });
    const file = (await uploadEpisodeFile(owner)).path;
    const submitted = await submitEpisode(owner, [file], { title: 'Garden Talk' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const gardenTalk = submitted.body.episode.id as string;
    await processed(gardenTalk, 'delivered');
    const brokenTake = await addEpisode(owner, 'Broken Take', file);
    await processed(brokenTake, 'failed');
    await withDb((db) =>
      db.query(
        `select private.record_token_refresh_failure(c.id, 'invalid_grant', true) from public.oauth_connections c where c.user_id = $1 and c.provider = 'google'`,
        [owner.id],
      ),
    );

    const review = await waitForMailTo(owner.email, subjects.review('Garden Talk'));
    const failed = await waitForMailTo(owner.email, subjects.failed('Broken Take'));
    const hosting = await waitForMailTo(owner.email, subjects.hostingReady);
    const received = await waitForMailTo(owner.email, subjects.received('Garden Talk'));
    for (const subject of [subjects.received('Broken Take'), subjects.allowance, subjects.reconnect]) await waitForMailTo(owner.email, subject);
    expect(await countsAfterAnotherRun(owner.email)).toEqual({
      [subjects.hostingReady]: 1,
      [subjects.received('Garden Talk')]: 1,
      [subjects.received('Broken Take')]: 1,
      [subjects.allowance]: 1,
      [subjects.review('Garden Talk')]: 1,
      [subjects.failed('Broken Take')]: 1,
      [subjects.reconnect]: 1,
    });

    // The product's name, the sender, and one-click unsubscribe headers on the kinds one may leave only.
    expect(review.from[0]).toMatchObject({ name: 'Castloop' });
    expect(review.html).toContain('Castloop');
    expect(review.text).toContain('The title is only a suggestion: keep it or give your own, then approve.');
    const reviewHeaders = await headersOf(review);
    expect(reviewHeaders['list-unsubscribe']).toMatch(new RegExp(`^<${webUrl}/api/email/unsubscribe\\?token=[^>]+>$`));
    expect(reviewHeaders['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect((await headersOf(failed))['list-unsubscribe']).toBeUndefined();
    expect(failed.text).toContain('The reason: take.mp4 has no video stream');
    expect(failed.text).toContain('Submit it again with a corrected file or start and end times.');
    expect(() => unsubscribeLink(failed)).toThrow();

    // The links answer: the episode page opens on the episode, the Drive folder is the episode's.
    expect(linkIn(review, 'Open the Google Drive folder')).toBe(`https://drive.google.com/drive/folders/folder-${gardenTalk}`);
    const episodePage = linkIn(review, 'Review and approve');
    expect(episodePage).toBe(`${webUrl}/episodes/${gardenTalk}`);
    const page = await harness.signedInPage(owner);
    await page.goto(episodePage);
    await page.getByRole('heading', { name: 'Garden Talk' }).first().waitFor();
    expect((await fetch(linkIn(hosting, 'Open your dashboard'))).status).toBe(200);
    expect(linkIn(failed, 'Open the episode page')).toBe(`${webUrl}/episodes/${brokenTake}`);

    // Unsubscribing from 'ready for review' through the e-mail's link, signed out.
    const visitor = await harness.newPage();
    await visitor.goto(unsubscribeLink(review));
    await visitor.getByText('Stop the e-mails Castloop sends when an episode is ready for your review?').waitFor();
    await expectScreenAtBothWidths(visitor);
    await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
    await visitor.getByText('You will no longer receive e-mails when an episode is ready for your review.').waitFor();
    await expectScreenAtBothWidths(visitor);

    // The one-click POST a mail client sends (RFC 8058) for 'submission received'; a GET of the
    // same address is the page that asks.
    const oneClick = (await headersOf(received))['list-unsubscribe'].slice(1, -1);
    const opened = await fetch(oneClick, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(unsubscribeLink(received));
    // A web mail client may send its own Origin: the signed link is the authority, not the site.
    const posted = await fetch(oneClick, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example.net' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual({ kind: 'submission_received', message: 'You will no longer receive e-mails when an episode you submitted was received.' });
    const forged = await fetch(oneClick.replace(/token=[^.]+\./, 'token=eyJ1IjoieCIsImsiOiJmYWlsZWQifQ.'), { method: 'POST' });
    expect(forged.status).toBe(400);

    // Neither kind is sent any more; a failure, which one cannot leave, still is.
    const thirdTake = await addEpisode(owner, 'Third Take', file);
    await processed(thirdTake, 'delivered');
    const fourthTake = await addEpisode(owner, 'Fourth Take', file);
    await processed(fourthTake, 'failed');
    await waitForMailTo(owner.email, subjects.failed('Fourth Take'));
    const after = await countsAfterAnotherRun(owner.email);
    expect(after[subjects.review('Third Take')]).toBeUndefined();
    expect(after[subjects.received('Third Take')]).toBeUndefined();
    expect(after[subjects.received('Fourth Take')]).toBeUndefined();
    expect(after[subjects.failed('Fourth Take')]).toBe(1);
  }, 90_000);
});
