import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '@': path.resolve(import.meta.dirname, 'web/src'),
  '@domain': path.resolve(import.meta.dirname, 'supabase/functions/_shared/domain'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          // Vitest's default on 2 cores is one worker, as the stack project needs; the unit files
          // take two, in their own group before the stack's (the unit project: 154 s -> 60 s).
          maxWorkers: 2,
          // Worker threads rather than child processes: each test file's fresh environment costs
          // less to start (the unit files: 79 -> 68-71 CPU s, all passing either way).
          pool: 'threads',
          sequence: { groupOrder: 0 },
          // npm test runs these beside both stacks' lanes on 2 cores, where a test of a second
          // alone can take several (vitest's default limit is 5 s).
          testTimeout: 20_000,
          include: ['web/src/**/*.test.{ts,tsx}', 'supabase/functions/_shared/**/*.test.ts', 'local/**/*.test.ts', 'tests/unit/**/*.test.ts', 'worker/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['web/src/testing/unit-setup.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'stack',
          // Everything here runs against a real local stack that global-setup starts on the
          // test ports (see .env.example: CASTLOOP_TEST_PORT_BASE).
          include: ['tests/{stack,db,contract,functions,e2e}/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          // One file at a time on one stack: the files share nothing but the stack, so they share
          // one module graph too (no per-file re-import of supabase-js, pg and playwright).
          isolate: false,
        },
      },
    ],
  },
});
