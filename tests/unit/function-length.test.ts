// Product functions at most 120 lines (eslint.config.js, `productFunctionMaxLines`; docs/decisions.md,
// "One way for each SPA job"): a longer function fails in the SPA, the functions and the local
// stack, comments and blank lines counted; one of 120 lines passes, and tests stand outside. The
// files need not exist.
import { beforeAll, describe, expect, it } from 'vitest';
import { snippetLinter } from '../support/lint.ts';

const lint = snippetLinter(['max-lines-per-function']);
const lengthErrors = async (file: string, source: string) => (await lint(file, source)).map((message) => message.message);

/** A function of `lines` lines in all: its head, its steps (every third a comment, every fifth blank), its return and its close. */
function functionOf(lines: number): string {
  const steps = Array.from({ length: lines - 3 }, (_, i) => (i % 5 === 4 ? '' : i % 3 === 2 ? `  // step ${i}` : `  total += ${i};`));
  return ['export function longOne(total: number): number {', ...steps, '  return total;', '}'].join('\n');
}

beforeAll(() => lengthErrors('web/src/features/episodes/components/length-fixture.tsx', ''), 30_000);

describe('the function length rule', () => {
  it('builds fixtures of the length it is asked for', () => {
    expect(functionOf(121).split('\n')).toHaveLength(121);
  });

  it.each(['web/src/features/episodes/components/length-fixture.tsx', 'web/src/app/length-fixture.ts', 'supabase/functions/api/routes/length-fixture.ts', 'local/sandbox/length-fixture.ts'])(
    'refuses a function of 121 lines in %s, and lets one of 120 through',
    async (file) => {
      expect(await lengthErrors(file, functionOf(121))).toEqual(["Function 'longOne' has too many lines (121). Maximum allowed is 120."]);
      expect(await lengthErrors(file, functionOf(120))).toEqual([]);
    },
  );

  it('counts an arrow function component and its nested handlers together', async () => {
    const handlers = Array.from({ length: 60 }, (_, i) => `  const on${i} = () => {\n    void ${i};\n  };`).join('\n');
    const source = `export const Screen = () => {\n${handlers}\n  return null;\n};`;
    expect(await lengthErrors('web/src/features/episodes/components/length-fixture.tsx', source)).toEqual([
      "Arrow function has too many lines (183). Maximum allowed is 120.",
    ]);
  });

  it('leaves tests alone', async () => {
    expect(await lengthErrors('web/src/features/episodes/components/length-fixture.test.tsx', functionOf(200))).toEqual([]);
    expect(await lengthErrors('tests/unit/length-fixture.test.ts', functionOf(200))).toEqual([]);
  });
});
