// Google Drive disconnected while an episode is processed, in a real browser on the real worker
// (issue 43, "Checked by"): the Connections panel's confirmation names the episode in progress;
// the job stops at its next step and the episode page shows why, with Retry; after reconnecting
// through the OAuth sandbox, Retry delivers, reusing every piece the first attempt made.
//
// How "the retry took less time" is judged: the interrupted first attempt did less than a whole
// processing, so its time says nothing about the retry's. The yardstick is a whole, uninterrupted
// processing of the same file with the same options by the same subscriber (a second episode,
// submitted after the retry delivered: both on a warm worker with nothing else queued), and both
// times come from the processing rows (created_at to finished_at), not the browser's polling. The
// saving has to stand out from the queue's noise: a piece done in under a second still costs the
// worker's 1 s poll, and a job may wait up to 1 s to be picked up. The stack test's 24 s episode is
// copied, not rendered (pieces of under a second: retry 3.4 s against 3.3 s whole), so here the
// same speech runs 90 s at 1080p with the logo drawn, three rendered segments of about 2.7 s, and
// the subscriber confirms once all but the last two segments are made: the first attempt makes
// all but the last and stops before it (measured: 4 of 5 pieces, retry 8.3 s against 12.5 s whole).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAutomation } from '../support/episodes.ts';
import { makeFixtures, type Fixtures } from '../support/media.ts';
import { finished, NOT_TRANSCRIBED, readySubscriber, submit, waitFor } from '../support/processing.ts';
import { withDb } from '../support/stack.ts';
import { expectOnPage, expectScreenAtBothWidths, useBrowser, waitForToast, wideScreen } from './support/browser.ts';

const harness = useBrowser();
useAutomation('builtin');

let dir: string;
let media: Fixtures;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-drive-lost-'));
  // The speech of tests/stack/processing-connections.test.ts (louder at 0-7 s and 15-22 s: the
  // clips, worker/media/clip-selection.ts), 90 s at 1080p: three 30 s segments worth reusing.
  media = makeFixtures(dir, 90, { size: '1920x1080', fps: 25 }, [[0, 7], [15, 22]]);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const title = 'Lost Drive Show';
const reconnectReason = 'Google Drive is not connected. Please reconnect your Google Drive account.';
const options = { title, addIntroOutro: false, addLogo: true };

const panel = (page: Page) => page.getByRole('region', { name: 'Social Media Connections' });
const driveRow = (page: Page) => panel(page).getByRole('listitem').filter({ hasText: 'Google Drive' });

const piecesOf = (processingId: string) =>
  withDb(async (db) => (await db.query<{ reused: boolean }>(`select reused from private.processing_piece_results where processing_id = $1`, [processingId])).rows);

/**
 * Whether all but the picture's last two segments are made: the long pieces (the sound, the clips)
 * go first, then the segments in order (worker/pipeline/plan.ts), so the one before last is under way.
 */
async function lastSegmentsToGo(processingId: string): Promise<boolean> {
  const { rows } = await withDb((db) => db.query<{ pieces: number }>(`select pieces from private.processing_plans where processing_id = $1`, [processingId]));
  return rows.length > 0 && (await piecesOf(processingId)).length >= rows[0].pieces - 2;
}

/** An attempt's status and how long it ran, by the database's clock (queued to settled). */
async function attempt(processingId: string): Promise<{ status: string; seconds: number }> {
  const { rows } = await withDb((db) =>
    db.query<{ status: string; seconds: number }>(
      `select status, extract(epoch from finished_at - created_at)::float8 as seconds from public.episode_processing where id = $1`,
      [processingId],
    ),
  );
  return rows[0];
}

const attemptsOf = (episodeId: string) =>
  withDb(async (db) => (await db.query<{ id: string }>(`select id from public.episode_processing where episode_id = $1 order by created_at`, [episodeId])).rows.map((row) => row.id));

describe('Google Drive lost during processing', () => {
  it('stops the episode early with the reconnect reason; after reconnecting, Retry delivers reusing the pieces made, faster than a whole processing', async () => {
    // Connections, not words: the podcast's language is one the offline engine does not transcribe.
    // The largest plan: this month holds the episode and the whole processing to compare with.
    const { user, client } = await readySubscriber(media, 'scale', { language: NOT_TRANSCRIBED });

    const page = await harness.signedInPage(user);
    page.setDefaultTimeout(15_000);
    await page.setViewportSize(wideScreen);
    const episode = await submit(client, user, options, media.episode);
    await page.goto('/dashboard');
    await expectOnPage(page, '/dashboard');
    await driveRow(page).getByText('Connected', { exact: true }).waitFor();
    const [first] = await attemptsOf(episode.id);

    // The subscriber asks to disconnect Drive and is told what it stops; they confirm once the
    // worker has made the sound, the clips and the first segment.
    await driveRow(page).getByRole('button', { name: 'Disconnect Google Drive' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect Google Drive?' });
    await confirm
      .getByText(
        `Castloop will stop using Google Drive until you connect it again: new episodes cannot be submitted without it. This episode is being processed and will stop before delivery: "${title}". Retry it after connecting again: the work done is kept.`,
      )
      .waitFor();
    await expect.poll(() => lastSegmentsToGo(first), { timeout: 60_000, interval: 100 }).toBe(true);
    await confirm.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await waitForToast(page, 'Disconnected', 'Google Drive connection removed successfully');

    // The episode page shows the failure as it comes (it polls), and offers Retry.
    await page.getByRole('region', { name: 'Recent Episodes' }).getByRole('link', { name: title }).click();
    await expectOnPage(page, `/episodes/${episode.id}`);
    await page.getByTestId('episode-status').getByText('Processing failed', { exact: true }).waitFor({ timeout: 60_000 });
    const failure = page.getByRole('alert').filter({ hasText: reconnectReason });
    await failure.getByText(reconnectReason, { exact: true }).waitFor();
    await failure.getByRole('button', { name: 'Retry' }).waitFor();
    await expectScreenAtBothWidths(page);
    await page.setViewportSize(wideScreen);
    const stopped = await attempt(first);
    expect(stopped.status).toBe('failed');
    const made = (await piecesOf(first)).length;

    // Reconnected through the provider, then Retry from the dashboard's Recent Episodes.
    await page.goto('/dashboard');
    await expectOnPage(page, '/dashboard');
    await driveRow(page).getByRole('button', { name: 'Connect Google Drive' }).click();
    await page.getByRole('dialog', { name: 'Connect Google Drive' }).getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/oauth\/\w+\/authorize/);
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await driveRow(page).getByText('Connected', { exact: true }).waitFor();
    const recent = page.getByRole('region', { name: 'Recent Episodes' });
    await recent.getByText(`Failed: ${reconnectReason}`, { exact: true }).waitFor();
    await recent.getByRole('button', { name: `Retry ${title}` }).click();
    await waitForToast(page, 'Episode Queued Again', `${title} is back in the processing queue. It counts toward this month's episodes.`);
    await recent.getByRole('link', { name: title }).click();
    await expectOnPage(page, `/episodes/${episode.id}`);
    await page.getByTestId('episode-status').getByText('Delivered', { exact: true }).waitFor({ timeout: 90_000 });

    // Every piece the first attempt made was reused; it had stopped before making them all.
    const [, second] = await attemptsOf(episode.id);
    const retried = await attempt(second);
    expect(retried.status).toBe('delivered');
    const pieces = await piecesOf(second);
    expect(pieces.filter((piece) => piece.reused)).toHaveLength(made);
    expect(pieces.length).toBeGreaterThan(made);

    // The yardstick: the same file processed whole, uninterrupted.
    const whole = await submit(client, user, { ...options, title: `${title} (whole)` }, media.episode);
    const wholeRow = await waitFor(client, whole.id, finished, 90_000);
    expect(wholeRow.status).toBe('delivered');
    const full = await attempt(wholeRow.id);
    console.log(
      `Drive lost: the first attempt stopped after ${stopped.seconds.toFixed(1)} s with ${made} of ${pieces.length} pieces made; ` +
        `the retry delivered in ${retried.seconds.toFixed(1)} s, a whole processing took ${full.seconds.toFixed(1)} s`,
    );
    expect(retried.seconds).toBeLessThan(full.seconds);
  }, 180_000);
});
