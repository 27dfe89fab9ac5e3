// Lighthouse performance score (npm lighthouse 12.2.3, its default mobile run with simulated
// throttling, in the Debian Chromium) of the production build's /login and, signed in, of
// /dashboard. Budget: 95 each. The session is put in the browser profile by signing in through
// the page first; the HTTP cache is then emptied so /dashboard is a first load like /login.
// Each page is measured LIGHTHOUSE_RUNS times (default 3), each run from a fresh copy of its
// profile (an empty HTTP cache), and the median run is reported, as Lighthouse's own docs advise
// for a score that varies from run to run.
// Runs its own stack (with the built SPA) on CASTLOOP_TEST_PORT_BASE (default 27500).
//   npx tsx bench/lighthouse.ts
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { repoRoot } from '../local/config.ts';
import { runAlone, type Row } from './lib/rows.ts';
import { benchStack } from './lib/stack.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));

interface Report {
  finalDisplayedUrl: string;
  categories: { performance: { score: number | null } };
  audits: Record<string, { displayValue?: string }>;
  runtimeError?: { message: string };
}

/** One Lighthouse run of `url` in a Chromium using `profileDir` (storage kept, so a session in it stays). */
async function lighthouse(url: string, profileDir: string): Promise<Report> {
  const cli = path.join(repoRoot, 'node_modules', 'lighthouse', 'cli', 'index.js');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [cli, url, '--output=json', '--output-path=stdout', '--only-categories=performance', '--disable-storage-reset', '--quiet', `--chrome-flags=${[...chromeFlags, `--user-data-dir=${profileDir}`].join(' ')}`],
    { env: { ...process.env, CHROME_PATH: chromiumPath }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout) as Report;
  if (report.runtimeError) throw new Error(`lighthouse ${url}: ${report.runtimeError.message}`);
  return report;
}

export async function bench(): Promise<Row[]> {
  const { config, startStack } = await benchStack(27500, 'lighthouse');
  const stack = await startStack(config, { reset: true, web: 'preview', worker: false });
  const guestProfile = mkdtempSync(path.join(os.tmpdir(), 'castloop-lh-guest-'));
  const memberProfile = mkdtempSync(path.join(os.tmpdir(), 'castloop-lh-member-'));
  try {
    const { createUser } = await import('../tests/support/users.ts');
    const user = await createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true });
    const context = await chromium.launchPersistentContext(memberProfile, { executablePath: chromiumPath, args: chromeFlags, baseURL: config.urls.web });
    try {
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByRole('button', { name: 'Submit New Episode' }).waitFor();
      await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
    } finally {
      await context.close();
    }

    const rows: Row[] = [];
    for (const [route, profile] of [['/login', guestProfile], ['/dashboard', memberProfile]] as const) {
      const reports: Report[] = [];
      for (let run = 0; run < runs; run++) {
        const copy = mkdtempSync(path.join(os.tmpdir(), 'castloop-lh-run-'));
        try {
          cpSync(profile, copy, { recursive: true });
          reports.push(await lighthouse(`${config.urls.web}${route}`, copy));
        } finally {
          rmSync(copy, { recursive: true, force: true });
        }
      }
      const score = (report: Report) => report.categories.performance.score ?? 0;
      const report = [...reports].sort((a, b) => score(a) - score(b))[Math.floor(reports.length / 2)];
      // A lost session would have measured the sign-in page instead.
      if (new URL(report.finalDisplayedUrl).pathname !== route) throw new Error(`lighthouse ${route} ended on ${report.finalDisplayedUrl}`);
      const metric = (id: string) => report.audits[id]?.displayValue ?? '?';
      rows.push({
        bench: 'lighthouse',
        figure: `performance score of ${route} (mobile, simulated throttling)`,
        value: Math.round(score(report) * 100),
        unit: '',
        budget: { limit: 95, kind: 'min' },
        detail: `median of ${runs} (${reports.map((r) => Math.round(score(r) * 100)).join(', ')}); FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`,
      });
    }
    return rows;
  } finally {
    rmSync(guestProfile, { recursive: true, force: true });
    rmSync(memberProfile, { recursive: true, force: true });
    await stack.stop();
  }
}

await runAlone(import.meta.url, bench);
