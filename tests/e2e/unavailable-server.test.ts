// The signed-in app while the server fails (issue 23, item 4): a 502 or a failed network on the
// user load shows a message and a 'Try again' button, and the tab sends that one request until
// the person presses the button (it sent over a thousand in seconds, stuck on 'Loading...').
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/users.ts';
import { expectAccessible, expectOnPage, signInAs, useBrowser } from './support/browser.ts';

const harness = useBrowser();

// Watching the tab for a further request once it has shown the failure, without sleeping on the
// real clock for it. "No further request" can only be seen over a bounded watch; its bound is
// set by what could send one:
// - A timer (a retry's backoff, a refetch interval, the Auth client loading 3 s after the page, a
//   delayed redirect): the page runs on Playwright's clock, moved a minute ahead at once
//   (`page.clock.runFor`), past the longest delay the SPA sets itself (React Query's backoff caps
//   at 30 s), so every such timer has fired before the watch ends.
// - An answer arriving (the loop this test was written for: each failed answer mounted a screen
//   that asked again, over a thousand requests in seconds): the next request follows an answer
//   within one render. The watch lasts RENDERS_WATCHED times what the first failed answer took to
//   become the message on screen on this machine, now (at least MIN_WATCH_MS), so a busy machine
//   watches longer, and a second request ends the watch at once.
const TIMERS_AHEAD = '01:00';
const RENDERS_WATCHED = 4;
const MIN_WATCH_MS = 250;

const isUserLoad = (url: string) => new URL(url).pathname === '/api/auth/user';

interface UserLoads {
  count: number;
  /** When the last one was answered (Date.now() here). */
  answeredAt: number;
}

/** Counts the requests for the signed-in user from now on, answering each as `answer` says. */
async function failUserLoads(page: Page, answer: { current: 'bad-gateway' | 'network' }): Promise<UserLoads> {
  const seen = { count: 0, answeredAt: 0 };
  await page.route('**/api/auth/user', async (route) => {
    seen.count += 1;
    if (answer.current === 'network') await route.abort('failed');
    else await route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ message: 'Bad gateway' }) });
    seen.answeredAt = Date.now();
  });
  return seen;
}

/** Fails if the tab asks for the user again, by a timer or by an answer (see above). */
async function expectNoFurtherUserLoad(page: Page, loads: UserLoads, answerToScreenMs: number): Promise<void> {
  const before = loads.count;
  const watchMs = Math.max(MIN_WATCH_MS, RENDERS_WATCHED * answerToScreenMs);
  const further = page.waitForRequest((request) => isUserLoad(request.url()), { timeout: watchMs }).then(
    () => true,
    () => false,
  );
  await page.clock.runFor(TIMERS_AHEAD);
  expect(await further, `a further request for the user within ${watchMs} ms`).toBe(false);
  expect(loads.count).toBe(before);
}

describe('the dashboard while the server is down', () => {
  it('shows the failure and a Try again button, sends one request per press, and never says Unauthorized', async () => {
    const { email, password } = await createUser('onboarded');
    const page = await harness.newPage();
    await signInAs(page, email, password);
    await expectOnPage(page, '/');

    const answer: { current: 'bad-gateway' | 'network' } = { current: 'bad-gateway' };
    const userLoads = await failUserLoads(page, answer);
    // The tab's timers run on a clock the test moves (see expectNoFurtherUserLoad).
    await page.clock.install();
    await page.goto('/dashboard');
    const tryAgain = page.getByRole('button', { name: 'Try again' });
    await tryAgain.waitFor();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'We could not load your account' }).count()).toBe(1);
    const answerToScreenMs = Date.now() - userLoads.answeredAt;
    await expectAccessible(page);
    // Where the tab used to send hundreds of requests.
    await expectNoFurtherUserLoad(page, userLoads, answerToScreenMs);
    expect(userLoads.count).toBe(1);
    expect(await page.getByText('Loading...').count()).toBe(0);
    expect(await page.getByText('Unauthorized').count()).toBe(0);

    answer.current = 'network';
    await tryAgain.click();
    await expect.poll(() => userLoads.count).toBe(2);
    await tryAgain.waitFor();
    await expectNoFurtherUserLoad(page, userLoads, answerToScreenMs);
    expect(userLoads.count).toBe(2);
    expect(await page.getByText('Unauthorized').count()).toBe(0);

    // The server is back: one more press shows the dashboard.
    await page.unroute('**/api/auth/user');
    await tryAgain.click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });
});

describe('the loading screen', () => {
  it('keeps its spinner still for a visitor who asked for reduced motion, and turns it for others', async () => {
    const { email, password } = await createUser('onboarded');
    const page = await harness.newPage();
    await signInAs(page, email, password);
    await expectOnPage(page, '/');
    for (const [reducedMotion, animated] of [
      ['reduce', false],
      ['no-preference', true],
    ] as const) {
      await page.emulateMedia({ reducedMotion });
      // The user load is held until the spinner has been looked at.
      let releaseUserLoad = () => {};
      const held = new Promise<void>((resolve) => (releaseUserLoad = resolve));
      await page.route('**/api/auth/user', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/dashboard');
      const spinner = page.getByRole('status').filter({ hasText: 'Loading...' }).locator('.loading');
      await spinner.waitFor();
      // An element the app has just replaced (the static shell's spinner by React's) has no
      // computed style: read again until the spinner on screen answers.
      let mask = '';
      await expect.poll(async () => (mask = await spinner.evaluate((element) => getComputedStyle(element).maskImage))).not.toBe('');
      // daisyUI's spinner turns through an SVG animation inside its mask.
      expect(mask.includes('animate'), `${reducedMotion}: ${mask}`).toBe(animated);
      releaseUserLoad();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.unroute('**/api/auth/user');
    }
  });
});
