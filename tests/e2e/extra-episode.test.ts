// More than the plan allows (issue 43, item 4), in a real browser at 390 px: a Scale subscriber
// at "4 / 4 used" is offered one more episode this month (no upgrade: there is no larger plan)
// or a word with sales about Enterprise; buys the extra episode through the Stripe sandbox's
// Checkout, comes back to the dashboard told it is there, and submits the fifth episode. The limit
// box is checked at 1280 px as well, with axe.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mp4Like, useAutomation } from '../support/episodes.ts';
import { scaleSubscriberAtLimit } from '../support/extra-episodes.ts';
import { expectOnPage, expectScreenAtBothWidths, narrowScreen, useBrowser, waitForToast } from './support/browser.ts';

const harness = useBrowser();
// The fifth episode goes to the automation receiver (what is tested is that it is accepted).
useAutomation('webhook');


describe('one more episode on the largest plan', () => {
  it('buys an extra episode through Checkout and submits the fifth', async () => {
    const { user } = await scaleSubscriberAtLimit();
    const page = await harness.signedInPage(user);
    await page.goto('/');
    await expectOnPage(page, '/');
    const box = page.getByTestId('gating-box');
    await box.getByText('Monthly limit reached. Your plan allows 4 episode(s) per month.').waitFor();
    await box.getByText('You are on our largest plan: buy one more episode for this month, contact sales about Enterprise, or wait until next month.').waitFor();
    expect(await box.getByRole('button', { name: 'Upgrade plan' }).count()).toBe(0);
    expect(await box.getByRole('link', { name: 'Contact sales for Enterprise' }).getAttribute('href')).toBe('mailto:sales@castloop.com?subject=Castloop%20Enterprise');
    await page.getByText('4 / 4 used').waitFor();
    await expectScreenAtBothWidths(page);

    await page.setViewportSize(narrowScreen);
    await box.getByRole('button', { name: 'Buy one more episode this month' }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await page.getByRole('heading', { name: 'Pay Castloop' }).waitFor();
    await page.getByText('$299.00').first().waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL((url) => url.pathname === '/dashboard');
    await waitForToast(page, 'Payment received: you can submit one more episode this month.');
    await page.waitForURL((url) => url.pathname === '/dashboard' && !url.search.includes('extra_episode'));
    await page.getByText('4 / 5 used').waitFor();
    expect(await box.count()).toBe(0);

    // The fifth episode, through the dialog.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'castloop-extra-episode-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'fifth.mp4');
    await writeFile(file, mp4Like(64 * 1024));
    await page.getByRole('button', { name: 'Submit New Episode' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
    await dialog.getByLabel('Choose MP4 files').setInputFiles(file);
    await waitForToast(page, 'Files Uploaded Successfully!', '1 file(s) uploaded to cloud storage.');
    await dialog.getByRole('button', { name: 'Submit Episode' }).click();
    await waitForToast(page, 'Episode Submitted Successfully!', "Your episode files have been sent to processing. You'll receive updates via email.");
    await page.getByText('5 / 5 used').waitFor();
    await box.getByText('Monthly limit reached. Your plan allows 4 episode(s) per month.').waitFor();
    await box.getByText('This month also has 1 extra episode(s) you bought.').waitFor();
    await expectScreenAtBothWidths(page);
  }, 90_000);
});
