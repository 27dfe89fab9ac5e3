// The rule against fixed waits in tests (eslint.config.js, `test-clock/no-fixed-wait`; docs/decisions.md,
// "Tests run off the real clock"): a wait over 200 ms outside a loop fails whether its length is
// written as a number or as a constant of the file; a short wait, a poll interval inside a loop
// and product code pass. The files need not exist.
import { beforeAll, describe, expect, it } from 'vitest';
import { snippetLinter } from '../support/lint.ts';

const lint = snippetLinter(['test-clock/no-fixed-wait']);

/** How many fixed waits the rule finds in `source` linted as `file`. */
const fixedWaits = async (file: string, source: string) => (await lint(file, source)).length;

beforeAll(() => fixedWaits('tests/e2e/fixed-wait-fixture.test.ts', ''), 30_000);

const testFile = 'tests/e2e/fixed-wait-fixture.test.ts';
const page = "import type { Page } from 'playwright-core';\ndeclare const page: Page;\n";

describe('the fixed-wait rule', () => {
  it.each([
    ['a number', 'await page.waitForTimeout(2000);'],
    ['a named constant (what unavailable-server.test.ts waited with)', 'const WATCH_MS = 2000;\nawait page.waitForTimeout(WATCH_MS);'],
    ['a constant made of constants', 'const SECOND = 1_000;\nconst WATCH_MS = 2 * SECOND;\nawait page.waitForTimeout(WATCH_MS);'],
    ['a constant with a type assertion', 'const WATCH_MS = 2000 as const;\nawait page.waitForTimeout(WATCH_MS);'],
    ["a const object's property", 'const timings = { watch: 2000 } as const;\nawait page.waitForTimeout(timings.watch);'],
    ['a constant in setTimeout', 'const PAUSE_MS = 500;\nawait new Promise((resolve) => setTimeout(resolve, PAUSE_MS));'],
    ['a constant in sleep()', 'declare function sleep(ms: number): Promise<void>;\nconst PAUSE_MS = 300;\nawait sleep(PAUSE_MS);'],
    ['a constant of an outer scope', "const WATCH_MS = 2000;\nit('waits', async () => {\n  await page.waitForTimeout(WATCH_MS);\n});"],
  ])('refuses a wait whose length is %s', async (_case, source) => {
    expect(await fixedWaits(testFile, `${page}${source}`)).toBe(1);
  });

  it.each([
    ['a short wait', 'const SETTLE_MS = 200;\nawait page.waitForTimeout(SETTLE_MS);'],
    ['a poll interval inside a loop', 'const POLL_MS = 500;\nwhile (Date.now() < 0) await page.waitForTimeout(POLL_MS);'],
    ['a reassignable variable', 'let pause = 2000;\npause = 10;\nawait page.waitForTimeout(pause);'],
    ['a parameter (its callers are checked where they name a number)', 'export const pause = (ms: number) => page.waitForTimeout(ms);'],
  ])('lets through %s', async (_case, source) => {
    expect(await fixedWaits(testFile, `${page}${source}`)).toBe(0);
  });

  it('applies to tests only', async () => {
    const source = 'const RECONNECT_TOAST_DELAY_MS = 2000;\nexport const later = (run: () => void) => setTimeout(run, RECONNECT_TOAST_DELAY_MS);';
    expect(await fixedWaits('web/src/features/connections/components/fixed-wait-fixture.test.tsx', source)).toBe(1);
    expect(await fixedWaits('web/src/features/connections/components/fixed-wait-fixture.tsx', source)).toBe(0);
  });
});
