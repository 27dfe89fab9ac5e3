// What a person found walking the product in Chromium at 1280 and 390 px (issue 26): the plans
// page's 'Manage Your Billing', the header's name on phones, the profile on a phone, keyboard
// use of the account menu, the profile tabs and the colour picker, the 'Required Fields Missing'
// toast, colours in the progress card, the intro video card, and the admin console's success
// message when the built-in worker takes a resubmission.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setActiveAutomation } from '../support/episodes.ts';
import { withDb } from '../support/stack.ts';
import { createSubmissionLog, uploadEpisodeFile } from '../support/submissions.ts';
import { createUser, type TestUser } from '../support/users.ts';
import { expectAccessible, expectOnPage, useBrowser } from './support/browser.ts';

const harness = useBrowser();
const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 800 };

const longEmail = 'bartholomew.featherstonehaugh.longname@podcasts-and-more-podcasts.example.com';
const longWebsite = 'https://www.the-very-long-podcast-name-that-keeps-going.example.com/episodes/all-of-them';

let subscriber: TestUser;
let newSubscriber: TestUser;
let admin: TestUser;

beforeAll(async () => {
  [subscriber, newSubscriber, admin] = await Promise.all([createUser('onboarded'), createUser('subscribed'), createUser('admin')]);
  await withDb((db) =>
    db.query(
      `update public.profiles set email = $2, podcast_website = $3, podcast_title = 'Long Names', brand_font = 'Roboto',
              brand_color_primary = '1A2B3C' where id = $1`,
      [subscriber.id, longEmail, longWebsite],
    ),
  );
});

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** The page is no wider than the viewport: nothing makes it scroll sideways. */
async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function expectInside(inner: Locator, outer: Locator) {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  expect(a && b).toBeTruthy();
  expect(a!.x).toBeGreaterThanOrEqual(b!.x);
  expect(a!.x + a!.width).toBeLessThanOrEqual(b!.x + b!.width);
}

describe('the walk findings', () => {
  it('a subscriber on a phone and a desktop: header, profile, keyboard and Manage Your Billing', async () => {
    const page = await harness.signedInPage(subscriber);
    page.setDefaultTimeout(10_000);
    await page.setViewportSize(phone);
    await page.goto('/');
    await expectOnPage(page, '/');

    // Header on phones: avatar (initials) and name.
    const menuButton = page.getByRole('button', { name: /^Account menu/ });
    await expect.poll(() => menuButton.getByText('Test onboarded').isVisible()).toBe(true);

    // The profile's long e-mail and website wrap instead of widening the page.
    // The profile card shows it (and the podcast feed panel names it as the feed's e-mail).
    await page.getByText(longEmail).first().waitFor();
    await page.getByText(longWebsite).waitFor();
    await expectNoSidewaysScroll(page, phone.width);
    await expectAccessible(page);

    // Escape on the account menu closes it and gives focus back to its button.
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const logout = page.getByRole('button', { name: 'Logout' });
    await logout.focus();
    await page.keyboard.press('Escape');
    await logout.waitFor({ state: 'detached' });
    expect(await isFocused(menuButton)).toBe(true);

    // The profile tabs: arrow keys, Home and End move and select, one tab in the Tab order.
    const viewTab = page.getByRole('tab', { name: 'View Profile' });
    const updateTab = page.getByRole('tab', { name: 'Update Profile' });
    expect(await updateTab.getAttribute('tabindex')).toBe('-1');
    await viewTab.focus();
    await page.keyboard.press('ArrowRight');
    expect(await updateTab.getAttribute('aria-selected')).toBe('true');
    expect(await isFocused(updateTab)).toBe(true);
    expect(await viewTab.getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('ArrowRight');
    expect(await isFocused(viewTab)).toBe(true);
    await page.keyboard.press('End');
    expect(await isFocused(updateTab)).toBe(true);
    await page.keyboard.press('Home');
    expect(await viewTab.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    expect(await updateTab.getAttribute('aria-selected')).toBe('true');

    // The update form on a phone: the post setting's label stays inside its card.
    const postSettings = page.getByRole('region', { name: /Post Settings/ });
    await postSettings.waitFor();
    const postLabel = postSettings.getByText('Post automatically to my connected platforms', { exact: true });
    await expectInside(postLabel, postSettings);
    await expectNoSidewaysScroll(page, phone.width);
    await expectAccessible(page);

    // Escape closes the colour picker and returns focus to the swatch button.
    const pickPrimary = page.getByRole('button', { name: 'Pick primary color' });
    await pickPrimary.click();
    const picker = page.getByRole('dialog', { name: 'Primary Color' });
    await picker.getByRole('button', { name: 'Done' }).focus();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    expect(await isFocused(pickPrimary)).toBe(true);

    // On a desktop too: the name beside the avatar, nothing wider than the window.
    await page.setViewportSize(desktop);
    await viewTab.click();
    // The profile card shows it (and the podcast feed panel names it as the feed's e-mail).
    await page.getByText(longEmail).first().waitFor();
    expect(await menuButton.getByText('Test onboarded').isVisible()).toBe(true);
    await expectNoSidewaysScroll(page, desktop.width);

    // 'Manage Your Billing' for a user with a payment customer, beside the card's 'Manage Billing'.
    await page.goto('/subscribe');
    await page.getByText('Your subscription is active').waitFor();
    await page.getByRole('button', { name: 'Manage Your Billing' }).waitFor();
    await page.getByRole('button', { name: 'Manage Billing', exact: true }).waitFor();
    await expectAccessible(page);
  });

  it('onboarding: no broken intro video, valid colours only, a toast clear of the submit button', async () => {
    const page = await harness.signedInPage(newSubscriber);
    await page.setViewportSize(phone);
    await page.goto('/onboarding');
    await expectOnPage(page, '/onboarding');

    // No intro video is configured for the test stack: the card embeds no other site's player (it
    // plays the app's own video: rough-edges.test.ts).
    const intro = page.getByRole('region', { name: 'Platform Introduction' });
    await intro.getByText(/A short tour of how Castloop/).waitFor();
    expect(await page.locator('iframe').count()).toBe(0);

    // A colour counts as complete only when it is a valid one.
    await page.getByText('0 of 10 required fields complete').waitFor();
    await page.getByLabel('Primary Color *').fill('12AB34');
    await page.getByText('1 of 10 required fields complete').waitFor();
    await page.getByLabel('Primary Color *').fill('12');
    await page.getByText('0 of 10 required fields complete').waitFor();
    await expectNoSidewaysScroll(page, phone.width);

    // 'Required Fields Missing' does not cover the submit button the pointer rests on, and leaves.
    for (const size of [phone, desktop]) {
      await page.setViewportSize(size);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const submit = page.getByRole('button', { name: 'Complete Setup & Go to Dashboard' });
      await submit.click();
      const toast = page.getByTestId('toast').filter({ hasText: 'Required Fields Missing' });
      await toast.waitFor();
      const [toastBox, buttonBox] = [await toast.boundingBox(), await submit.boundingBox()];
      const overlaps =
        toastBox!.x < buttonBox!.x + buttonBox!.width &&
        buttonBox!.x < toastBox!.x + toastBox!.width &&
        toastBox!.y < buttonBox!.y + buttonBox!.height &&
        buttonBox!.y < toastBox!.y + toastBox!.height;
      expect(overlaps, `toast ${JSON.stringify(toastBox)} over the button ${JSON.stringify(buttonBox)}`).toBe(false);
      await expectAccessible(page);
      if (size === phone) await toast.waitFor({ state: 'hidden', timeout: 10_000 });
    }
  });

  it("the admin console names the built-in worker when it takes a resubmission", async () => {
    // The built-in worker is the active automation (the stack's default; set here to be sure).
    await setActiveAutomation('builtin');
    await createSubmissionLog(subscriber, [await uploadEpisodeFile(subscriber, 'walk.mp4')]);
    const page = await harness.signedInPage(admin);
    await page.goto('/admin/episodes/resubmit');
    await expectOnPage(page, '/admin/episodes/resubmit');
    await page.getByRole('button', { name: new RegExp(`^Select the submission by ${subscriber.email.replace(/[.+]/g, '\\$&')}`) }).first().click();
    await page.getByRole('button', { name: 'Resubmit Episode' }).click();
    const toast = page.getByTestId('toast').filter({ hasText: 'Resubmission Successful' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain("Episode successfully resubmitted to Castloop's built-in processing");
    await expectAccessible(page);
  });
});
