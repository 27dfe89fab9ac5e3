// The closing line of `npm test`: 'N passed, N failed' from vitest's JSON report. A test file
// that failed to load or crashed has no test results of its own; it counts as one failure, so
// the line and the exit code never hide it.
import { existsSync, readFileSync } from 'node:fs';

interface VitestReport {
  /** False when the run itself failed, e.g. a global setup that threw before any test ran. */
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{ name: string; status: string; message?: string; assertionResults: Array<{ status: string }> }>;
}

export function summarize(report: VitestReport): { passed: number; failed: number; brokenFiles: string[] } {
  const brokenFiles = report.testResults
    .filter((file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'))
    .map((file) => file.name);
  const failed = report.numFailedTests + brokenFiles.length;
  // A run that failed with no failing test or file (its setup threw) is still one failure.
  return { passed: report.numPassedTests, failed: failed === 0 && !report.success ? 1 : failed, brokenFiles };
}

if (import.meta.filename === process.argv[1]) {
  const file = process.argv[2] ?? 'test-results/vitest.json';
  if (!existsSync(file)) {
    console.log('0 passed, 1 failed (no test report: vitest did not finish)');
    process.exit(1);
  }
  const { passed, failed, brokenFiles } = summarize(JSON.parse(readFileSync(file, 'utf8')) as VitestReport);
  for (const name of brokenFiles) console.log(`failed to run: ${name}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
