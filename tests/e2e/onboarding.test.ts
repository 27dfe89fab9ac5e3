// Onboarding and the profile in a real browser: a paid user completes the configuration form with
// generated PNG, JPEG and MP4 files (wrong type and wrong shape refused), lands on the dashboard,
// sees the welcome modal once, views and updates the profile, replaces a file (kept until the new
// one is saved); unsaved input survives a reload.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/users.ts';
import { jpegBytes, mp4Bytes, pngBytes } from '../support/media-fixtures.ts';
import { expectAccessible, expectOnPage, useBrowser } from './support/browser.ts';

const harness = useBrowser();


const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });

async function choose(page: Page, label: string, chosen: ReturnType<typeof file>) {
  await page.getByLabel(label, { exact: true }).setInputFiles(chosen);
}

describe('onboarding', () => {
  it('a paid user completes the form, lands on the dashboard and manages the profile', async () => {
    const user = await createUser('subscribed');
    const page = await harness.signedInPage(user);
    // A paid user who has not onboarded is sent to the form (signing in: accounts.test.ts).
    await page.goto('/');
    await expectOnPage(page, '/onboarding');
    await page.getByRole('heading', { name: 'Welcome to Castloop, Test!' }).waitFor();
    for (const card of ['Account Setup', 'Join Premium Community', 'Platform Introduction', 'Complete Your Profile']) {
      await page.getByRole('heading', { name: card, exact: true }).waitFor();
    }
    expect(await page.getByRole('link', { name: /Join Premium Community/ }).getAttribute('target')).toBe('_blank');
    for (const section of ['1. Personal Information', '2. Podcast Details', '3. Brand Assets', '4. Post Settings', '5. Intro/Outro Clips']) {
      await page.getByRole('heading', { name: section }).waitFor();
    }
    await page.getByText('0 of 10 required fields complete').waitFor();
    await page.getByText('10 required field(s) missing').waitFor();
    expect(await page.getByLabel('Podcast Description *').getAttribute('rows')).toBe('4');

    // Submitting with fields missing lists them.
    await page.getByRole('button', { name: 'Complete Setup & Go to Dashboard' }).click();
    const missing = page.getByTestId('toast').filter({ hasText: 'Required Fields Missing' });
    await missing.waitFor();
    expect(await missing.textContent()).toMatch(/Podcast Title, Podcast Description/);
    await page.getByText('Brand font is required').waitFor();

    // Wrong type and wrong shape are refused with the spec's messages.
    await choose(page, 'Brand Logo *', file('logo.jpg', 'image/jpeg', jpegBytes(64, 64)));
    await page.getByText('Logo must be a PNG file').waitFor();
    await choose(page, 'Podcast Artwork *', file('cover.jpg', 'image/jpeg', jpegBytes(300, 200)));
    await page.getByText('Podcast artwork must be a square JPG/JPEG file').waitFor();
    await choose(page, 'Video Intro', file('intro.mp4', 'video/mp4', mp4Bytes(1080, 1920)));
    await page.getByText('Video intro must be a 16:9 landscape MP4 file').waitFor();
    await expectAccessible(page);

    await page.getByLabel('Podcast Title *').fill('Engines of Thought');
    await page.getByLabel('Podcast Description *').fill('Conversations about computing.');
    await page.getByLabel('Podcast Author *').fill('Ada Lovelace');
    await page.getByLabel('Primary Category *').selectOption('Technology');
    await page.getByLabel('Language').selectOption('en');
    await page.getByLabel('Timezone').selectOption('UTC+05:30');
    await page.getByLabel('Brand Font *').selectOption('Roboto');
    await page.getByLabel('Primary Color *').fill('#1a2b3c');
    expect(await page.getByLabel('Primary Color *').inputValue()).toBe('1A2B3C');
    await page.getByRole('button', { name: 'Pick secondary color' }).click();
    await page.getByLabel('Secondary Color picker').fill('#aabbcc');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('Secondary Color *').inputValue()).toBe('AABBCC');
    await page.getByLabel('Tertiary Color *').fill('ffffff');
    await choose(page, 'Brand Logo *', file('logo.png', 'image/png', pngBytes(64, 64)));
    await choose(page, 'Podcast Artwork *', file('cover.jpg', 'image/jpeg', jpegBytes(200, 200)));
    await choose(page, 'Video Intro', file('intro.mp4', 'video/mp4', mp4Bytes(1920, 1080)));
    await choose(page, 'Clip Outro', file('clip-outro.mp4', 'video/mp4', mp4Bytes(1080, 1920)));
    await page.getByText('10 of 10 required fields complete').waitFor();
    expect(await page.getByText('Logo must be a PNG file').count()).toBe(0);

    await page.getByRole('button', { name: 'Complete Setup & Go to Dashboard' }).click();
    await page.getByText(/Onboarding Complete/).waitFor();
    await expectOnPage(page, '/dashboard');

    // The welcome modal, once.
    const welcome = page.getByRole('dialog', { name: 'Thank you for completing the onboarding!' });
    await welcome.waitFor();
    await expectAccessible(page);
    await welcome.getByRole('button', { name: 'Got it' }).click();
    await welcome.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByRole('tab', { name: 'View Profile' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Thank you for completing the onboarding!' }).count()).toBe(0);

    // View: values, file badges, swatches, 'Not provided'.
    const card = page.getByRole('region', { name: 'Your Profile' });
    await card.getByText('Engines of Thought').waitFor();
    await card.getByText('logo.png').waitFor();
    await card.getByText('cover.jpg').waitFor();
    await card.getByText('intro.mp4').waitFor();
    await card.getByText('clip-outro.mp4').waitFor();
    await card.getByText('#1A2B3C').waitFor();
    await card.getByText('English').waitFor();
    expect(await card.getByText('Not provided').count()).toBeGreaterThan(0);
    await card.getByText(/Last updated:/).waitFor();
    await expectAccessible(page);

    // Update: the form in update mode, numbered without Podcast Details.
    await card.getByRole('tab', { name: 'Update Profile' }).click();
    await card.getByRole('heading', { name: '2. Brand Assets' }).waitFor();
    expect(await card.getByRole('heading', { name: /Podcast Details/ }).count()).toBe(0);
    await card.getByText('Current file: logo.png').waitFor();
    await card.getByLabel('Tertiary Color', { exact: true }).fill('00FF00');
    await card.getByRole('button', { name: 'Save Configuration' }).click();
    await page.getByText(/Profile Updated/).waitFor();
    await card.getByRole('tab', { name: 'View Profile', selected: true }).waitFor();
    await card.getByText('#00FF00').waitFor();

    // Replace a file: the stored one stays until the new one is saved (issue 26, item 6).
    await card.getByRole('tab', { name: 'Update Profile' }).click();
    const logoSlot = card.getByRole('group', { name: 'Brand Logo' });
    await logoSlot.getByRole('button', { name: 'Replace existing file' }).click();
    await card.getByText('logo.png stays until the new file is saved.').waitFor();
    await card.getByRole('button', { name: 'Keep current file' }).click();
    await card.getByText('Current file: logo.png').waitFor();
    await card.getByRole('group', { name: 'Brand Logo' }).getByRole('button', { name: 'Replace existing file' }).click();
    await page.reload();
    await page.getByRole('region', { name: 'Your Profile' }).getByText('logo.png').waitFor();
    await card.getByRole('tab', { name: 'Update Profile' }).click();
    await card.getByText('Current file: logo.png').waitFor();
    await card.getByRole('group', { name: 'Brand Logo' }).getByRole('button', { name: 'Replace existing file' }).click();
    await choose(page, 'Brand Logo', file('new-logo.png', 'image/png', pngBytes(32, 32)));
    await card.getByRole('button', { name: 'Save Configuration' }).click();
    await page.getByText(/Profile Updated/).waitFor();
    await card.getByText('new-logo.png').waitFor();
    expect(await card.getByText('logo.png', { exact: true }).count()).toBe(0);
  }, 150_000);

  it('keeps unsaved input across a reload, and asks before Refresh Data drops it (issue 26, item 7)', async () => {
    const user = await createUser('subscribed');
    const page = await harness.signedInPage(user);
    await page.goto('/onboarding');
    // The first test checks this screen with axe; here only the restored notice is new.
    await page.waitForURL((url) => url.pathname === '/onboarding', { timeout: 15_000 });
    await page.getByLabel('Podcast Title *').fill('Draft Title');
    await page.getByLabel('Podcast Author *').fill('Grace Hopper');
    await page.reload();
    await page.getByText('Your unsaved changes from your last visit are back.', { exact: false }).waitFor();
    expect(await page.getByLabel('Podcast Title *').inputValue()).toBe('Draft Title');
    expect(await page.getByLabel('Podcast Author *').inputValue()).toBe('Grace Hopper');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Refresh Data' }).click();
    const confirm = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    expect(await page.getByLabel('Podcast Title *').inputValue()).toBe('Draft Title');
    await page.getByRole('button', { name: 'Refresh Data' }).click();
    await confirm.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => page.getByLabel('Podcast Title *').inputValue()).toBe('');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('onboardingDraft:')))).toEqual([]);
    await page.reload();
    await page.getByLabel('Podcast Title *').waitFor();
    expect(await page.getByLabel('Podcast Title *').inputValue()).toBe('');
    expect(await page.getByText('Your unsaved changes from your last visit are back.', { exact: false }).count()).toBe(0);
  }, 120_000);
});
