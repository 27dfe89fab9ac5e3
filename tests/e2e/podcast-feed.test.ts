// Hosting set up by the product (issue 44, item 2) in a real browser: a subscriber completes
// onboarding with Apple-sized artwork and, with no operator involved, the dashboard shows the
// show's feed address (which a podcast app can fetch), how to submit it to Apple Podcasts and
// Spotify, and no hosting block: episode submission is open.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { jpegBytes, pngBytes } from '../support/media-fixtures.ts';
import { createUser } from '../support/users.ts';
import { expectAccessible, expectOnPage, useBrowser } from './support/browser.ts';

const harness = useBrowser();

async function completeOnboarding(page: Page) {
  await page.goto('/onboarding');
  await page.getByLabel('Podcast Title *').fill('Engines of Thought');
  await page.getByLabel('Podcast Description *').fill('Conversations about computing.');
  await page.getByLabel('Podcast Author *').fill('Ada Lovelace');
  await page.getByLabel('Primary Category *').selectOption('Technology');
  await page.getByLabel('Language').selectOption('en');
  await page.getByLabel('Brand Font *').selectOption('Roboto');
  await page.getByLabel('Primary Color *').fill('1A2B3C');
  await page.getByLabel('Secondary Color *').fill('AABBCC');
  await page.getByLabel('Tertiary Color *').fill('FFFFFF');
  await page.getByLabel('Brand Logo *', { exact: true }).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBytes(64, 64) });
  await page.getByLabel('Podcast Artwork *', { exact: true }).setInputFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: jpegBytes(1400, 1400) });
  await page.getByText('10 of 10 required fields complete').waitFor();
  await page.getByRole('button', { name: 'Complete Setup & Go to Dashboard' }).click();
  await expectOnPage(page, '/dashboard');
}

describe('podcast hosting', () => {
  it('after onboarding the dashboard shows the feed address and submission opens without an operator', async () => {
    const user = await createUser('subscribed', { drive: 'connected' });
    const page = await harness.signedInPage(user);
    await completeOnboarding(page);
    const welcome = page.getByRole('dialog', { name: 'Thank you for completing the onboarding!' });
    await welcome.getByRole('button', { name: 'Got it' }).click();

    const panel = page.getByRole('region', { name: 'Your Podcast Feed' });
    await panel.getByText("Your feed meets Apple Podcasts' requirements.").waitFor({ timeout: 30_000 });
    const address = await panel.getByLabel('Podcast feed address').inputValue();
    expect(address).toMatch(/\/storage\/v1\/object\/public\/podcast-feeds\/feeds\/[0-9a-f]{32}\.xml$/);
    const feed = await fetch(address);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('<title>Engines of Thought</title>');
    await panel.getByRole('heading', { name: 'Submit to Apple Podcasts' }).waitFor();
    await panel.getByRole('heading', { name: 'Submit to Spotify' }).waitFor();
    await panel.getByRole('button', { name: 'Copy' }).waitFor();
    await panel.getByText(`The e-mail address in your feed is ${user.email} (your account's).`).waitFor();

    // The hosting block is gone by itself: no gating box, the submit dialog opens.
    await expect.poll(() => page.getByTestId('gating-box').count(), { timeout: 15_000 }).toBe(0);
    expect(await page.getByText(/Your podcast hosting is being configured/).count()).toBe(0);
    await expectAccessible(page);
  }, 120_000);
});
