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
});
