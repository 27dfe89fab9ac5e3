// Browser tests: playwright-core driving Debian's Chromium headless shell (Playwright cannot
// download its own browser here), against the web server of the test stack. Every page visited
// gets an axe check; a failing test leaves a screenshot in test-results/.
import type { AxeResults, RunOptions } from 'axe-core';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, onTestFailed } from 'vitest';
import { repoRoot } from '../../../local/config.ts';
import { config } from '../../support/stack.ts';

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`), the browser Playwright itself
 * runs headless tests in: the same Blink as the full browser without its windowing layer, and
 * less than half its CPU for the same tests (Chromium 85 -> 37 CPU s over three e2e files).
 * Without it, or with `CHROMIUM_PATH=/usr/bin/chromium`, they run in the full browser.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');
const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const webUrl = config.urls.web;

export interface BrowserHarness {
  browser(): Browser;
  /** A fresh context (no cookies, no local storage) and page. */
  newPage(): Promise<Page>;
  /**
   * A fresh context and page that already hold `user`'s session, as the /login screen leaves it
   * in local storage: for tests about what comes after signing in (the page is not navigated yet).
   */
  signedInPage(user: { email: string; password: string }): Promise<Page>;
}

// The SPA's session key (web/src/lib/supabase.ts: supabase-js's default for the build's API URL).
const sessionStorageKey = `sb-${new URL(config.urls.api).hostname.split('.')[0]}-auth-token`;

/** Signs `user` in through Auth's password grant: the session the SPA would store. */
async function passwordSession(user: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${config.urls.api}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (!res.ok) throw new Error(`could not sign in ${user.email}: ${res.status} ${await res.text()}`);
  const session = (await res.json()) as { expires_in: number; expires_at?: number };
  return JSON.stringify({ ...session, expires_at: session.expires_at ?? Math.floor(Date.now() / 1000) + session.expires_in });
}

/** Call once per test file: launches Chromium for the file and closes what each test opened. */
export function useBrowser(): BrowserHarness {
  let browser: Browser | undefined;
  const open: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  });
  afterEach(async () => {
    for (const context of open.splice(0)) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
  });
  async function newPage(session?: string): Promise<Page> {
    // As a visitor who asked for reduced motion: the app's spinners stand still (index.css), so
    // the renderer is not repainting them all through the run (a quarter of its CPU here).
    const context = await browser!.newContext({ baseURL: webUrl, reducedMotion: 'reduce' });
    open.push(context);
    // The session goes into local storage before the tab's first document of the app runs, once
    // per tab (a later sign-out stays signed out across reloads). Playwright's storageState would
    // open and load an extra page for it in every context.
    if (session !== undefined) {
      await context.addInitScript(
        ({ origin, key, value }) => {
          if (window.location.origin !== origin || window.sessionStorage.getItem('castloop-test-session-seeded')) return;
          window.localStorage.setItem(key, value);
          window.sessionStorage.setItem('castloop-test-session-seeded', '1');
        },
        { origin: new URL(webUrl).origin, key: sessionStorageKey, value: session },
      );
    }
    const page = await context.newPage();
    onTestFailed(async ({ task }) => {
      const dir = path.join(repoRoot, 'test-results');
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => {});
      console.log(`screenshot of the failed test: ${file}`);
    });
    return page;
  }
  return {
    browser: () => browser!,
    newPage: () => newPage(),
    // Signing in through the screen costs a page load and a render per test; accounts.test.ts and
    // the journey go through it.
    signedInPage: async (user) => newPage(await passwordSession(user)),
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const axeOptions: RunOptions = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] }, resultTypes: ['violations'] };
type WindowWithAxe = Window & { axe?: { run(context: Document, options: RunOptions): Promise<AxeResults> } };

/**
 * Axe's WCAG 2 A/AA rules on the page's document. Axe is loaded once per document (the SPA's own
 * navigations keep it) and runs in the page: @axe-core/playwright opens a blank page for every
 * check to finish its run there, which took longer than the check (1.4 s against 0.5 s). The
 * only frames the app has embed other sites' players, which are not ours to check.
 */
async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate((options) => (window as WindowWithAxe).axe!.run(document, options), axeOptions);
  return results.violations;
}

// Screens (viewport and DOM) that passed axe in this run. Axe's verdict follows from the DOM, the
// build's styles and the viewport, so the same screen in the same state (the sign-in page that many
// tests pass through) is not checked again: each check costs a second or more of the suite.
const passedScreens = new Set<string>();

/**
 * The screen as axe sees it: viewport and DOM (the head only gains preload links as the app
 * navigates: the title and language stand for it).
 */
async function screenOf(page: Page): Promise<string> {
  const viewport = page.viewportSize();
  const dom = await page.evaluate(() => `${document.documentElement.lang}\n${document.title}\n${document.body.outerHTML}`);
  return createHash('sha256').update(`${viewport?.width}x${viewport?.height}\n${dom}`).digest('hex');
}

/** Asserts the page has no serious or critical accessibility violations (axe, WCAG 2 A/AA). */
export async function expectAccessible(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const screen = await screenOf(page);
    if (passedScreens.has(screen)) return;
    const serious = (await axeViolations(page))
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join(', ')})`);
    const still = (await screenOf(page)) === screen;
    // A screen that changed while axe read it (a list refetched, a toast replaced) is read again
    // once it holds still: a verdict on a DOM mid-change is not one on any screen a person sees.
    if (serious.length > 0 && !still && attempt < 3) continue;
    expect(serious, `accessibility violations on ${page.url()}`).toEqual([]);
    if (still) passedScreens.add(screen);
    return;
  }
}

/** A phone's and a laptop's screen: journeys run at the narrow one, where a control can be pushed out of reach. */
export const narrowScreen = { width: 390, height: 844 };
export const wideScreen = { width: 1280, height: 800 };

/** The screen at 1280 px, then at 390 px (where it is left): axe, and no sideways scroll. */
export async function expectScreenAtBothWidths(page: Page): Promise<void> {
  for (const viewport of [wideScreen, narrowScreen]) {
    await page.setViewportSize(viewport);
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `sideways scroll at ${viewport.width} px on ${page.url()}`).toBeLessThanOrEqual(viewport.width);
  }
}

/** Waits until the address is `pathname` (ignoring query), then runs the axe check on it. */
export async function expectOnPage(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname, { timeout: 15_000 });
  await expectAccessible(page);
}

/** Polls MailDev's REST API for the newest e-mail to `to`. */
export async function waitForEmail(to: string, timeoutMs = 10_000): Promise<{ subject: string; html: string; text: string }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${config.urls.mailbox}/email`);
    if (res.ok) {
      const emails = (await res.json()) as Array<{ subject: string; html: string; text: string; to: Array<{ address: string }> }>;
      const match = emails.filter((email) => email.to.some((recipient) => recipient.address.toLowerCase() === to.toLowerCase())).at(-1);
      if (match) return match;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no e-mail to ${to} within ${timeoutMs} ms`);
}

/** Waits for the toast titled `title` and checks its description (the line under the title). */
export async function waitForToast(page: Page, title: string, description?: string | RegExp): Promise<void> {
  const toast = page.getByTestId('toast').filter({ has: page.getByText(title, { exact: true }) });
  await toast.waitFor();
  if (description === undefined) return;
  const lines = await toast.locator('p').allTextContents();
  expect(lines[0]).toBe(title);
  if (typeof description === 'string') expect(lines[1]).toBe(description);
  else expect(lines[1]).toMatch(description);
}

/** Signs in through the /login screen, as a person would. */
export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}
