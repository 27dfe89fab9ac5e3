// The SPA's one-way rules (eslint.config.js, `spaOneWay` and `useFormOutsideForm`; docs/decisions.md,
// "One way for each SPA job"): each fails on a violating snippet linted as a file of the SPA, and
// the way it points to passes. The files need not exist; what they import does.
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');
const rules = new Set(['no-restricted-syntax', 'no-restricted-imports']);
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: path.join(root, 'eslint.config.js'),
  ruleFilter: ({ ruleId }) => rules.has(ruleId),
});

/** The messages of the one-way rules for `source` linted as `file` (relative to the repository). */
async function oneWayErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\n`, { filePath: path.join(root, file) });
  return result.messages.filter((message) => message.ruleId && rules.has(message.ruleId)).map((message) => message.message);
}

beforeAll(() => oneWayErrors('web/src/features/episodes/api/one-way-fixture.ts', ''), 30_000);

const feature = 'web/src/features/episodes/api/one-way-fixture.ts';
const cases: Array<{ rule: string; file: string; violating: string; message: RegExp; allowed: string }> = [
  {
    rule: 'no cast through unknown',
    file: 'web/src/features/episodes/components/one-way-fixture.tsx',
    violating: 'export const stats = JSON.parse("{}") as unknown as { total: number };',
    message: /No `as unknown as` in the SPA/,
    allowed: "import { episodeStatsSchema } from '@domain/episodes';\nexport const stats = episodeStatsSchema.parse(JSON.parse('{}'));",
  },
  {
    rule: 'no inline query key',
    file: feature,
    violating: "import { queryOptions } from '@tanstack/react-query';\nexport const q = queryOptions({ queryKey: ['/api/episodes'], queryFn: () => 1 });",
    message: /Query keys come from web\/src\/lib\/query-keys\.ts/,
    allowed:
      "import { queryOptions } from '@tanstack/react-query';\nimport { queryKeys } from '@/lib/query-keys';\nexport const q = queryOptions({ queryKey: queryKeys.episodes.all, queryFn: () => 1 });",
  },
  {
    rule: 'no fetch outside the client',
    file: feature,
    violating: "export const answer = () => fetch('/api/episodes');",
    message: /Requests go through the one client/,
    allowed: "import { ignoredAnswer, apiRequest } from '@/lib/api-client';\nexport const answer = () => apiRequest('GET', '/api/episodes', ignoredAnswer);",
  },
  {
    rule: 'no window.fetch outside the client',
    file: 'web/src/app/one-way-fixture.ts',
    violating: "export const answer = () => window.fetch('/api/episodes');",
    message: /Requests go through the one client/,
    allowed: 'export const answer = () => window.location.href;',
  },
  {
    rule: 'no second XMLHttpRequest client',
    file: feature,
    violating: 'export const xhr = () => new XMLHttpRequest();',
    message: /Upload progress is an option of the one client/,
    allowed:
      "import { ignoredAnswer, apiRequest } from '@/lib/api-client';\nexport const send = (body: FormData) => apiRequest('POST', '/api/x', ignoredAnswer, { body, onUploadProgress: () => {} });",
  },
  {
    rule: "no react-hook-form useForm outside components/form.tsx",
    file: 'web/src/features/episodes/components/one-way-fixture.tsx',
    violating: "import { useForm } from 'react-hook-form';\nexport const useIt = () => useForm();",
    message: /Forms use useZodForm and Form/,
    allowed: "import { useWatch } from 'react-hook-form';\nimport { useZodForm } from '@/components/form';\nexport { useWatch, useZodForm };",
  },
  {
    rule: 'no useForm in the app layer either',
    file: 'web/src/app/one-way-fixture.tsx',
    violating: "import { useForm } from 'react-hook-form';\nexport const useIt = () => useForm();",
    message: /Forms use useZodForm and Form/,
    allowed: "import { useZodForm } from '@/components/form';\nexport { useZodForm };",
  },
];

describe('the SPA one-way rules', () => {
  it.each(cases)('$rule: the violating snippet fails, the way it points to passes', async ({ file, violating, message, allowed }) => {
    const refused = await oneWayErrors(file, violating);
    expect(refused.some((text) => message.test(text)), refused.join('\n')).toBe(true);
    expect(await oneWayErrors(file, allowed)).toEqual([]);
  });

  it('the client and the Supabase module may call fetch and XMLHttpRequest', async () => {
    expect(await oneWayErrors('web/src/lib/api-client.ts', 'export const send = () => [fetch("/api/x"), new XMLHttpRequest()];')).toEqual([]);
    expect(await oneWayErrors('web/src/lib/supabase.ts', 'export const send = () => fetch("/rest/v1");')).toEqual([]);
  });

  it('components/form.tsx is where useForm lives', async () => {
    expect(await oneWayErrors('web/src/components/form.tsx', "import { useForm } from 'react-hook-form';\nexport { useForm };")).toEqual([]);
    expect(await oneWayErrors('web/src/components/other-fixture.tsx', "import { useForm } from 'react-hook-form';\nexport { useForm };")).not.toEqual([]);
  });
});
