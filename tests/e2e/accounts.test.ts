// Accounts in a real browser: register, sign in for each state, access rules, password reset,
// logout, a session that survives a reload, and axe checks on every screen.
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/stack.ts';
import { createUser, type UserState } from '../support/users.ts';
import { expectAccessible, expectOnPage, useBrowser, waitForEmail, waitForToast, signInAs } from './support/browser.ts';

const harness = useBrowser();
const password = 'correct-horse-battery';

const signIn = (page: import('playwright-core').Page, email: string, secret = password) => signInAs(page, email, secret);

describe('registration', () => {
  it('creates the account and lands on /subscribe', async () => {
    const page = await harness.newPage();
    await page.goto('/register');
    // An empty submission first: the screen with its validation messages passes axe (the
    // messages themselves: web/src/app/routes/auth/register-page.test.tsx).
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('First name is required').waitFor();
    await expectAccessible(page);
    const email = uniqueEmail('e2e');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expectOnPage(page, '/subscribe');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('pendingUserEmail'))).toBe(email);
  });

  it("shows 'Registration failed' with the server message for a taken e-mail", async () => {
    const { email } = await createUser('new');
    const page = await harness.newPage();
    await page.goto('/register');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Registration failed' }).first();
    await alert.waitFor();
    expect(await alert.textContent()).toContain('User already registered');
    expect(new URL(page.url()).pathname).toBe('/register');
  });
});

describe('sign in', () => {
  const destinations: Array<[UserState, string]> = [
    ['new', '/subscribe'],
    ['subscribed', '/onboarding'],
    ['onboarded', '/'],
  ];
  it.each(destinations)('a %s user lands on %s', async (state, destination) => {
    const { email } = await createUser(state);
    const page = await harness.newPage();
    await signIn(page, email);
    await expectOnPage(page, destination);
    if (destination === '/') await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it("shows 'Login failed' for a wrong password", async () => {
    const { email } = await createUser('new');
    const page = await harness.newPage();
    await signIn(page, email, 'not-the-password');
    const alert = page.getByRole('alert').filter({ hasText: 'Login failed' }).first();
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Invalid login credentials');
    await expectAccessible(page);
  });

  it('shows a toast as a title over its description, and a swipe right of over 50 px dismisses it', async () => {
    const { email } = await createUser('new');
    const page = await harness.newPage();
    await signIn(page, email, 'not-the-password');
    const toast = page.getByTestId('toast');
    await toast.waitFor();
    expect(await toast.locator('p').allTextContents()).toEqual(['Login failed', 'Invalid login credentials']);
    const box = (await toast.boundingBox())!;
    const y = box.y + box.height / 2;
    // 30 px is not enough; 80 px is.
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 50, y, { steps: 5 });
    const offset = () => toast.evaluate((element) => (element as HTMLElement).style.transform);
    await expect.poll(offset).toBe('translateX(30px)');
    await page.mouse.up();
    // Let go: the toast springs back (the release was handled) and stays.
    await expect.poll(offset).toBe('translateX(0px)');
    expect(await toast.isVisible()).toBe(true);
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 100, y, { steps: 5 });
    await page.mouse.up();
    // Well before the toast's own 5 s: the swipe dismissed it.
    await toast.waitFor({ state: 'hidden', timeout: 1000 });
  });

  it('names each screen in the browser tab and serves the favicon', async () => {
    const page = await harness.newPage();
    await page.goto('/login');
    await expect.poll(() => page.title()).toBe('Sign In · Castloop');
    await page.goto('/register');
    await expect.poll(() => page.title()).toBe('Create Account · Castloop');
    const icon = await page.request.get('/favicon.svg');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
  });

  it('keeps the session across a reload', async () => {
    const { email } = await createUser('onboarded');
    const page = await harness.newPage();
    await signIn(page, email);
    await expectOnPage(page, '/');
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // The session lives in supabase-js; page scripts never write a session cookie.
    const cookies = await page.context().cookies();
    expect(cookies.filter((cookie) => cookie.name.startsWith('sb-') && !cookie.httpOnly)).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).not.toMatch(/sb-access-token/);
  });

  it('logs out to / and then to /login, and the session is gone', async () => {
    const { email } = await createUser('onboarded');
    const page = await harness.newPage();
    await signIn(page, email);
    await expectOnPage(page, '/');
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expectOnPage(page, '/login');
    await page.goto('/dashboard');
    await expectOnPage(page, '/login');
  });
});

describe('access rules for logged-out visitors', () => {
  it.each(['/', '/subscribe', '/onboarding', '/dashboard', '/no-such-page'])('%s ends on /login', async (path) => {
    const page = await harness.newPage();
    await page.goto(path);
    await expectOnPage(page, '/login');
  });

  it('shows the not-found page to a signed-in user, then goes home after 1 s', async () => {
    const { email } = await createUser('onboarded');
    const page = await harness.newPage();
    await signIn(page, email);
    await expectOnPage(page, '/');
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await expectAccessible(page);
    await expectOnPage(page, '/');
  });
});

describe('password reset', () => {
  it('forgot password -> e-mail -> reset -> sign in with the new password', async () => {
    const { email } = await createUser('new');
    const page = await harness.newPage();
    await page.goto('/forgot-password');
    await expectAccessible(page);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await expectAccessible(page);

    const mail = await waitForEmail(email);
    const link = /href="([^"]+\/reset-password\?token=[^"]+)"/.exec(mail.html)![1].replace(/&amp;/g, '&');
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('my-new-password');
    await page.getByLabel('Confirm new password').fill('my-new-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('heading', { name: 'Password Reset Complete' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Continue to Login' }).click();
    await expectOnPage(page, '/login');
    await signIn(page, email, 'my-new-password');
    await expectOnPage(page, '/subscribe');
  });

  it("a used or bad token shows 'Reset Failed' with Auth's message on submit", async () => {
    const page = await harness.newPage();
    await page.goto('/reset-password?token=not-a-real-token');
    await page.getByLabel('New password', { exact: true }).fill('my-new-password');
    await page.getByLabel('Confirm new password').fill('my-new-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await waitForToast(page, 'Reset Failed', /invalid|expired/i);
    expect(new URL(page.url()).pathname).toBe('/reset-password');
  });
});
