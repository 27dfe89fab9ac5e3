import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../scripts/test-summary.ts';

describe('the closing line of npm test', () => {
  it('counts a test file that failed to load as a failure', () => {
    const summary = summarize({
      success: false,
      numPassedTests: 508,
      numFailedTests: 0,
      testResults: [
        { name: 'tests/contract/auth-client.test.ts', status: 'failed', message: 'ENOENT', assertionResults: [] },
        { name: 'tests/db/lint.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }] },
      ],
    });
    expect(summary).toEqual({ passed: 508, failed: 1, brokenFiles: ['tests/contract/auth-client.test.ts'] });
  });

  it('counts failed tests once, not their file again', () => {
    const summary = summarize({
      success: false,
      numPassedTests: 3,
      numFailedTests: 2,
      testResults: [{ name: 'a.test.ts', status: 'failed', assertionResults: [{ status: 'failed' }, { status: 'failed' }, { status: 'passed' }] }],
    });
    expect(summary).toEqual({ passed: 3, failed: 2, brokenFiles: [] });
  });

  it('counts a run that failed before any test (a global setup that threw) as a failure', () => {
    expect(summarize({ success: false, numPassedTests: 0, numFailedTests: 0, testResults: [] })).toEqual({ passed: 0, failed: 1, brokenFiles: [] });
  });

  it('passes a clean run', () => {
    const summary = summarize({ success: true, numPassedTests: 2, numFailedTests: 0, testResults: [{ name: 'a.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'passed' }] }] });
    expect(summary).toEqual({ passed: 2, failed: 0, brokenFiles: [] });
  });

  it('sums the reports of both runs, and counts a run without a report as a failure', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'summary-'));
    try {
      const report = path.join(dir, 'api.json');
      writeFileSync(report, JSON.stringify({ success: true, numPassedTests: 2, numFailedTests: 0, testResults: [] }));
      const run = (...files: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test-summary.ts', ...files], { encoding: 'utf8' });
      const both = run(report, report);
      expect(both.stdout.trim()).toBe('4 passed, 0 failed');
      expect(both.status).toBe(0);
      const oneMissing = run(report, path.join(dir, 'browser.json'));
      expect(oneMissing.stdout).toContain('browser.json: that vitest run did not finish');
      expect(oneMissing.stdout.trim().split('\n').at(-1)).toBe('2 passed, 1 failed');
      expect(oneMissing.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
