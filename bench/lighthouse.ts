// Lighthouse performance and accessibility scores (npm lighthouse 12.2.3, its default mobile run
// with simulated throttling, in the Debian Chromium) of every screen of issue 28 item 5 on the
// production build, each in the state a real user reaches it in: /login and /register as a
// visitor, /subscribe signed in without a subscription, /onboarding subscribed but not onboarded,
// /dashboard and an episode page of a subscriber with a delivered episode (files, posting
// calendar, transcript, show notes and blog post), and /admin/episodes/resubmit as an
// administrator. Budgets: performance 95, accessibility 100.
// Each signed-in profile gets its session by signing in through the page; its HTTP cache is then
// emptied. Each screen is measured LIGHTHOUSE_RUNS times (default 3), each run from a fresh copy
// of its profile (an empty HTTP cache, so every run is a first load), both categories in one run;
// each category's median run is reported, as Lighthouse's own docs advise for a score that
// varies from run to run. LIGHTHOUSE_SCREENS (comma-separated paths as in `screens` below, e.g.
// `/login,/episodes/:id`) measures only those; LIGHTHOUSE_REPORTS=<dir> keeps every run's JSON
// report there (open it in the Lighthouse viewer to see what a score lost points on);
// LIGHTHOUSE_PROFILES=<dir> also loads each screen once more with the CPU slowed 4x (as the
// simulation counts it) and keeps the main thread's CPU profile from the navigation to 3 s after
// the load (a .cpuprofile: Chromium's DevTools opens it), to see which code the blocking time is.
// Runs its own stack (with the built SPA) on CASTLOOP_TEST_PORT_BASE (default 27500).
//   npx tsx bench/lighthouse.ts
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { repoRoot } from '../local/config.ts';
import { median, runAlone, type Row } from './lib/rows.ts';
import { benchStack } from './lib/stack.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const categories = [
  { id: 'performance', budget: 95 },
  { id: 'accessibility', budget: 100 },
] as const;
type CategoryId = (typeof categories)[number]['id'];

interface Report {
  finalDisplayedUrl: string;
  categories: Record<CategoryId, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { score: number | null; displayValue?: string }>;
  runtimeError?: { message: string };
}

/** One Lighthouse run of `url` in a Chromium using `profileDir` (storage kept, so a session in it stays). */
async function lighthouse(url: string, profileDir: string): Promise<Report> {
  const cli = path.join(repoRoot, 'node_modules', 'lighthouse', 'cli', 'index.js');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      cli,
      url,
      '--output=json',
      '--output-path=stdout',
      `--only-categories=${categories.map((category) => category.id).join(',')}`,
      '--disable-storage-reset',
      '--quiet',
      `--chrome-flags=${[...chromeFlags, `--user-data-dir=${profileDir}`].join(' ')}`,
    ],
    { env: { ...process.env, CHROME_PATH: chromiumPath }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout) as Report;
  if (process.env.LIGHTHOUSE_REPORTS) {
    mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
    const name = `${new URL(url).pathname.slice(1).replace(/\W+/g, '-')}-${new Date().toISOString().replace(/\W/g, '')}.json`;
    writeFileSync(path.join(process.env.LIGHTHOUSE_REPORTS, name), stdout);
  }
  if (report.runtimeError) throw new Error(`lighthouse ${url}: ${report.runtimeError.message}`);
  return report;
}

/** Signs `email` in through the page in a new Chromium profile, waits for `landing`, empties the HTTP cache. */
async function signedInProfile(webUrl: string, email: string, password: string, landing: string): Promise<string> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'castloop-lh-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: chromeFlags,
    baseURL: webUrl,
  });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === landing, { timeout: 30_000 });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
  } finally {
    await context.close();
  }
  return profile;
}

/** One first load of `url` in a copy of `profileDir`, the CPU slowed 4x, its main thread's CPU profile written to `file`. */
async function cpuProfile(url: string, profileDir: string, file: string): Promise<void> {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'castloop-lh-cpu-'));
  cpSync(profileDir, copy, { recursive: true });
  const context = await chromium.launchPersistentContext(copy, { executablePath: chromiumPath, args: chromeFlags });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(3000);
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
  } finally {
    await context.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

export async function bench(): Promise<Row[]> {
  const { config, startStack } = await benchStack(27500, 'lighthouse');
  const stack = await startStack(config, { reset: true, web: 'preview', worker: false });
  const profiles: string[] = [];
  const profile = (dir: string) => (profiles.push(dir), dir);
  try {
    const { createUser } = await import('../tests/support/users.ts');
    const { sampleContent, seedEpisode } = await import('../tests/support/episode-page.ts');
    const web = config.urls.web;
    const [visitor, unsubscribed, subscribed, subscriber, admin] = await Promise.all([
      Promise.resolve(profile(mkdtempSync(path.join(os.tmpdir(), 'castloop-lh-visitor-')))),
      createUser('new'),
      createUser('subscribed', { tier: 'growth' }),
      createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true }),
      createUser('admin'),
    ]);
    // The subscriber's delivered episode, as the worker leaves it: files in Drive, clips
    // scheduled, transcript, show notes and blog post; and an older one.
    await seedEpisode(subscriber.id, { title: 'Pilot', submittedAt: new Date(Date.now() - 7 * 86_400_000) });
    const clip = (n: number) => ({
      name: `Engines of Thought 12 - clip 0${n}.mp4`,
      kind: 'clip',
      durationSeconds: 30,
      width: 1080,
      height: 1920,
      driveFileId: `clip${n}`,
      driveUrl: `https://drive.google.com/file/d/clip${n}/view`,
    });
    const delivered = await seedEpisode(subscriber.id, {
      title: 'Engines of Thought 12',
      driveFolderUrl: 'https://drive.google.com/drive/folders/engines12',
      outputs: [
        {
          name: 'Engines of Thought 12.mp4',
          kind: 'episode',
          durationSeconds: 1200,
          width: 1920,
          height: 1080,
          driveFileId: 'episode12',
          driveUrl: 'https://drive.google.com/file/d/episode12/view',
        },
        clip(1),
        clip(2),
        clip(3),
      ],
      posts: [
        { clipName: 'Engines of Thought 12 - clip 01.mp4', inDays: 1, provider: 'youtube' },
        { clipName: 'Engines of Thought 12 - clip 02.mp4', inDays: 4, provider: 'linkedin' },
        { clipName: 'Engines of Thought 12 - clip 03.mp4', inDays: 7, provider: 'x' },
      ],
      content: sampleContent(),
    });
    const subscriberProfile = profile(await signedInProfile(web, subscriber.email, subscriber.password, '/'));
    const screens = [
      { route: '/login', url: '/login', profile: visitor },
      { route: '/register', url: '/register', profile: visitor },
      {
        route: '/subscribe',
        url: '/subscribe',
        profile: profile(await signedInProfile(web, unsubscribed.email, unsubscribed.password, '/subscribe')),
      },
      {
        route: '/onboarding',
        url: '/onboarding',
        profile: profile(await signedInProfile(web, subscribed.email, subscribed.password, '/onboarding')),
      },
      { route: '/dashboard', url: '/dashboard', profile: subscriberProfile },
      { route: '/episodes/:id', url: `/episodes/${delivered.episodeId}`, profile: subscriberProfile },
      {
        route: '/admin/episodes/resubmit',
        url: '/admin/episodes/resubmit',
        profile: profile(await signedInProfile(web, admin.email, admin.password, '/admin/episodes/resubmit')),
      },
    ];
    const only = process.env.LIGHTHOUSE_SCREENS?.split(',').filter(Boolean);

    const rows: Row[] = [];
    for (const screen of screens.filter((s) => !only || only.includes(s.route))) {
      const reports: Report[] = [];
      for (let run = 0; run < runs; run++) {
        const copy = mkdtempSync(path.join(os.tmpdir(), 'castloop-lh-run-'));
        try {
          cpSync(screen.profile, copy, { recursive: true });
          const report = await lighthouse(`${web}${screen.url}`, copy);
          // A lost session would have measured the sign-in page instead.
          if (new URL(report.finalDisplayedUrl).pathname !== screen.url)
            throw new Error(`lighthouse ${screen.url} ended on ${report.finalDisplayedUrl}`);
          reports.push(report);
        } finally {
          rmSync(copy, { recursive: true, force: true });
        }
      }
      if (process.env.LIGHTHOUSE_PROFILES) {
        await cpuProfile(`${web}${screen.url}`, screen.profile, path.join(process.env.LIGHTHOUSE_PROFILES, `${screen.route.slice(1).replace(/\W+/g, '-')}.cpuprofile`));
      }
      const load = os.loadavg()[0].toFixed(1);
      for (const category of categories) {
        const score = (report: Report) => Math.round((report.categories[category.id].score ?? 0) * 100);
        const scores = reports.map(score);
        const report = reports.find((r) => score(r) === median(scores))!;
        const metric = (id: string) => report.audits[id]?.displayValue ?? '?';
        // What the median run lost points on: failed audits that count towards the score.
        const failed = report.categories[category.id].auditRefs
          .filter(
            (ref) =>
              ref.weight > 0 &&
              report.audits[ref.id]?.score !== null &&
              (report.audits[ref.id]?.score ?? 1) < (category.id === 'accessibility' ? 1 : 0.9),
          )
          .map((ref) => ref.id);
        const detail =
          category.id === 'performance'
            ? `FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, SI ${metric('speed-index')}`
            : failed.length
              ? `failed: ${failed.join(', ')}`
              : 'every audit passed';
        rows.push({
          bench: 'lighthouse',
          figure: `${category.id} score of ${screen.route} (mobile, simulated throttling)`,
          value: median(scores),
          unit: '',
          budget: { limit: category.budget, kind: 'min' },
          detail: `median of ${runs} (${scores.join(', ')}), load average ${load}; ${detail}${category.id === 'performance' && failed.length ? `; below 0.9: ${failed.join(', ')}` : ''}`,
        });
      }
    }
    return rows;
  } finally {
    for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
    await stack.stop();
  }
}

await runAlone(import.meta.url, bench);
