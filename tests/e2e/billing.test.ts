// Billing in a real browser against the Stripe sandbox: pay, cancel, portal, and recovering the
// session in a fresh browser after checkout.
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/stack.ts';
import { createUser } from '../support/users.ts';
import { expectAccessible, expectOnPage, useBrowser, webUrl } from './support/browser.ts';

const harness = useBrowser();
const password = 'correct-horse-battery';

async function register(page: import('playwright-core').Page): Promise<string> {
  const email = uniqueEmail('billing');
  await page.goto('/register');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectOnPage(page, '/subscribe');
  return email;
}

describe('plans page and checkout', () => {
  it('register -> Choose Your Plan -> growth -> Pay -> active growth, routed to /onboarding', async () => {
    const page = await harness.newPage();
    const email = await register(page);
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    for (const title of ['Starter', 'Growth', 'Scale']) await page.getByRole('heading', { name: new RegExp(title) }).first().waitFor();
    await page.getByText('Most Popular').waitFor();
    await page.getByText('Month-to-month, cancel anytime.').waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: /Choose Growth/ }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await expectAccessible(page);
    const checkoutSessionId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('button', { name: 'Pay' }).click();
    await expectOnPage(page, '/onboarding');
    expect(new URL(page.url()).searchParams.get('session_id')).toBeNull();
    // The signed-in return used the checkout session up: its id signs no one in any more.
    const replay = await fetch(new URL('/api/auth/recover-session', webUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, session_id: checkoutSessionId }),
    });
    expect(replay.status).toBe(401);
  });

  it("checkout 'Cancel' returns to /subscribe with nothing changed", async () => {
    const page = await harness.newPage();
    await register(page);
    await page.getByRole('button', { name: /Choose Starter/ }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expectOnPage(page, '/subscribe');
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    expect(await page.getByText('Your subscription is active').count()).toBe(0);
  });

  it('the portal cancels the subscription and the app routes back to /subscribe', async () => {
    const user = await createUser('new');
    const page = await harness.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectOnPage(page, '/subscribe');
    await page.getByRole('button', { name: /Choose Growth/ }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await expectOnPage(page, '/onboarding');

    await page.goto('/subscribe');
    await page.getByText('Your subscription is active').waitFor();
    await page.getByRole('button', { name: 'Back to Dashboard' }).waitFor();
    await expectAccessible(page);
    // No second checkout for a subscriber: other plans change through the one portal button.
    await page.getByText('Current plan').waitFor();
    expect(await page.getByRole('button', { name: /^Choose / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Change to / }).count()).toBe(2);
    // The spec shows 'Manage Your Billing' to anyone with a payment customer, the card's 'Manage Billing' too.
    await page.getByRole('button', { name: 'Manage Your Billing' }).waitFor();
    await page.getByRole('button', { name: 'Manage Billing' }).click();
    await page.waitForURL(/\/portal\//);
    await expectAccessible(page);
    // Cancelling at period end keeps the subscription active until then: cancel now.
    await page.getByRole('button', { name: 'Cancel immediately' }).click();
    await page.getByRole('link', { name: /Return to Castloop/i }).click();
    await expectOnPage(page, '/subscribe');
    await page.goto('/');
    await expectOnPage(page, '/subscribe');
  });

  it('recovers the session in a fresh browser with the stored pendingUserEmail', async () => {
    const page = await harness.newPage();
    const email = await register(page);
    await page.getByRole('button', { name: /Choose Growth/ }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    // Pay, but stop before the redirect lands: the return happens in another browser.
    const sessionId = /checkout\/(cs_test_[^/?#]+)/.exec(page.url())![1];
    const paid = await page.request.post(page.url().replace(/\/?$/, '/pay'), { maxRedirects: 0 });
    expect(paid.status()).toBe(303);

    const fresh = await harness.newPage();
    await fresh.goto('/login');
    await fresh.evaluate((value) => localStorage.setItem('pendingUserEmail', value), email);
    await fresh.goto(`/?session_id=${sessionId}`);
    await expectOnPage(fresh, '/onboarding');
    expect(await fresh.evaluate(() => localStorage.getItem('pendingUserEmail'))).toBeNull();
  });
});
