// Google Drive disconnected while an episode is processed, in a real browser on the real worker
// (issue 43, "Checked by"): the Connections panel's confirmation names the episode in progress;
// the job stops at its next step and the episode page shows why, with Retry; after reconnecting
// through the OAuth sandbox, Retry delivers, reusing every piece the first attempt made.
//
// "A retry that finishes in less time than the first attempt took": the first attempt is stopped
// once all but the last two of its picture's segments are made, so it makes all but the last; a
// retry that made every piece again would take longer than it did. The pieces must be worth
// reusing against the queue's noise (a piece done in under a second still costs the worker's 1 s
// poll): the stack test's 24 s episode is copied, not rendered, so here the same speech runs 90 s
// at 1080p with the logo drawn, three rendered segments of about 2.7 s (measured: 4 of 5 pieces
// made, then the retry 8.4 s against the first attempt's 10.8 s; a whole processing 12.5 s).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAutomation } from '../support/episodes.ts';
import { makeFixtures, type Fixtures } from '../support/media.ts';
import { NOT_TRANSCRIBED, readySubscriber, submit } from '../support/processing.ts';
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
 * Whether all but the picture's last two segments are made: the clips, then the sound, go first,
 * then the segments in order (worker/pipeline/plan.ts), so the one before last is under way.
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
  it('stops the episode early with the reconnect reason; after reconnecting, Retry delivers reusing the pieces made, in less time than the first attempt took', async () => {
    // Connections, not words: the podcast's language is one the offline engine does not transcribe.
    // The largest plan: the month has room for the episode and its retry whatever else it holds.
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

    // The yardstick: the retry finishes in less time than the interrupted attempt took.
    // Without the reuse it would make every piece again, more than that attempt made (measured
    // alone: first attempt 10.8-11.4 s, retry 8.4-8.7 s, a whole processing 12.5-13.1 s).
    console.log(`Drive lost: the first attempt stopped after ${stopped.seconds.toFixed(1)} s with ${made} of ${pieces.length} pieces made; the retry delivered in ${retried.seconds.toFixed(1)} s`);
    expect(retried.seconds).toBeLessThan(stopped.seconds);
  }, 180_000);
});
