// The lint fences between the rooms (eslint.config.js, roomZones; docs/decisions.md, "Architecture:
// the rooms"): for each room, an import it may not make is an error of
// import-x/no-restricted-paths, and one it may make is not. The sources are linted as if they
// were files in the room (the files need not exist; what they import does).
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');
const rule = 'import-x/no-restricted-paths';
// Only the fence rule runs: the others (no-cycle above all) would walk each imported module graph.
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: path.join(root, 'eslint.config.js'),
  ruleFilter: ({ ruleId }) => ruleId === rule,
});

/** The fence errors for `source` linted as the file `file` (relative to the repository). */
async function fenceErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\n`, { filePath: path.join(root, file) });
  return result.messages.filter((message) => message.ruleId === rule).map((message) => message.message);
}

// The first lint loads the configuration and the TypeScript resolver: a second or two.
beforeAll(() => fenceErrors('tests/unit/fence-fixture.test.ts', ''), 30_000);

interface Case {
  room: string;
  file: string;
  forbidden: Array<[string, RegExp]>;
  allowed: string[];
}

const cases: Case[] = [
  {
    room: 'the SPA',
    file: 'web/src/features/episodes/fence-fixture.ts',
    forbidden: [
      ["import { loadConfig } from '../../../../local/config.ts';", /never import the local stack or the worker/],
      ["import '../../../../worker/main.ts';", /never import the local stack or the worker/],
      ["import { db } from '../../../../supabase/functions/_shared/db.ts';", /never function runtime code/],
      [
        "import { sealToken } from '../../../../supabase/functions/_shared/domain-server/token-cipher.ts';",
        /server-only domain code/,
      ],
      ["import { sealToken } from '@domain/../domain-server/token-cipher.ts';", /server-only domain code/],
    ],
    allowed: [
      "import { PLAN_TIERS } from '@domain/plans';",
      "import type { Database } from '@db-types';",
      "import { authClient } from '@/lib/supabase';",
    ],
  },
  {
    room: "the SPA's build",
    file: 'vite.config.ts',
    forbidden: [["import { loadConfig } from './local/config.ts';", /never import the local stack or the worker/]],
    allowed: ["import { resolveSpaSettings } from './web/build-settings.ts';"],
  },
  {
    room: 'the functions',
    file: 'supabase/functions/api/routes/fence-fixture.ts',
    forbidden: [
      ["import { loadConfig } from '../../../../local/config.ts';", /functions never import/],
      ["import '../../../../worker/main.ts';", /functions never import/],
      ["import { authClient } from '../../../../web/src/lib/supabase.ts';", /functions never import/],
    ],
    allowed: [
      "import { db } from '../../_shared/db.ts';",
      "import { sealToken } from '../../_shared/domain-server/token-cipher.ts';",
    ],
  },
  {
    room: 'the worker',
    file: 'worker/fence-fixture.ts',
    forbidden: [
      ["import { loadConfig } from '../local/config.ts';", /worker never imports the local stack or the SPA/],
      ["import { authClient } from '../web/src/lib/supabase.ts';", /worker never imports the local stack or the SPA/],
      ["import { db } from '../supabase/functions/_shared/db.ts';", /shares only pure domain code/],
    ],
    allowed: [
      "import { sealToken } from '../supabase/functions/_shared/domain-server/token-cipher.ts';",
      "import { PLAN_TIERS } from '../supabase/functions/_shared/domain/plans.ts';",
      "import { loadWorkerConfig } from './config.ts';",
    ],
  },
  {
    room: 'the local stack',
    file: 'local/fence-fixture.ts',
    forbidden: [
      ["import '../worker/main.ts';", /only by running worker\/main\.ts/],
      ["import { authClient } from '../web/src/lib/supabase.ts';", /reaches the SPA only through vite\.config\.ts/],
      ["import '../supabase/functions/api/index.ts';", /through the Deno host by path/],
    ],
    allowed: [
      "import { SIGNED_URL_MAX_SECONDS } from '../supabase/functions/_shared/domain-server/storage-limits.ts';",
      "import { loadConfig } from './config.ts';",
    ],
  },
  {
    room: 'the shared domain code',
    file: 'supabase/functions/_shared/domain/fence-fixture.ts',
    forbidden: [
      ["import { MAX_DELIVERY_ATTEMPTS } from '../domain-server/outbox.ts';", /the SPA bundles it/],
      ["import { db } from '../db.ts';", /the SPA bundles it/],
    ],
    allowed: ["import { PLAN_TIERS } from './plans.ts';", "import { Constants } from '../database.types.ts';"],
  },
  {
    room: 'the server-only domain code',
    file: 'supabase/functions/_shared/domain-server/fence-fixture.ts',
    forbidden: [["import { db } from '../db.ts';", /never function runtime code/]],
    allowed: [
      "import { PLAN_TIERS } from '../domain/plans.ts';",
      "import { SIGNED_URL_MAX_SECONDS } from './storage-limits.ts';",
    ],
  },
];

describe.each(cases)('$room ($file)', ({ file, forbidden, allowed }) => {
  it.each(forbidden)('refuses %s', async (source, message) => {
    const errors = await fenceErrors(file, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each(allowed)('allows %s', async (source) => {
    expect(await fenceErrors(file, source)).toEqual([]);
  });
});

describe('outside the rooms', () => {
  it('lets a test import from every room', async () => {
    expect(
      await fenceErrors('web/src/lib/fence-fixture.test.ts', "import { loadConfig } from '../../../local/config.ts';"),
    ).toEqual([]);
    expect(
      await fenceErrors(
        'tests/unit/fence-fixture.test.ts',
        "import { loadConfig } from '../../local/config.ts';\nimport '../../worker/main.ts';",
      ),
    ).toEqual([]);
  });
});
