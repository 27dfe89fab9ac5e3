// The closing line of `npm test`: 'N passed, N failed' from vitest's JSON reports. A test file
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
  // One report per vitest run (npm test runs three side by side); a missing one is a run that died.
  const files = process.argv.length > 2 ? process.argv.slice(2) : ['test-results/vitest.json'];
  let passed = 0;
  let failed = 0;
  for (const file of files) {
    if (!existsSync(file)) {
      console.log(`no test report at ${file}: that vitest run did not finish`);
      failed += 1;
      continue;
    }
    const summary = summarize(JSON.parse(readFileSync(file, 'utf8')) as VitestReport);
    for (const name of summary.brokenFiles) console.log(`failed to run: ${name}`);
    passed += summary.passed;
    failed += summary.failed;
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
