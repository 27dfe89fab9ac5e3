// The dev server serves the SPA's sources and nothing else of the repository: `/@fs/...` must
// not reach local/ (the sandbox's Stripe and webhook secrets, the demo passwords) or .env files.
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../local/config.ts';
import { localSpaEnv } from '../../local/web.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
let server: ViteDevServer;
let base = '';

beforeAll(async () => {
  // The settings npm start gives the dev server (vite.config.ts fills in none).
  Object.assign(process.env, localSpaEnv(loadConfig('test')));
  server = await createServer({
    configFile: path.join(root, 'vite.config.ts'),
    server: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'silent',
  });
  await server.listen();
  base = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

const status = async (url: string) => (await fetch(`${base}${url}`)).status;

describe('vite dev server', () => {
  it.each([
    'local/sandbox/stripe/settings.ts',
    'local/demo-accounts.ts',
    '.env.example',
    'supabase/seed.sql',
    'package.json',
    'supabase/functions/_shared/domain-server/token-cipher.ts',
  ])('refuses /@fs/ for %s', async (file) => {
    expect(await status(`/@fs${path.join(root, file)}`)).toBe(403);
  });

  it('serves the SPA and the shared domain code', async () => {
    expect(await status('/')).toBe(200);
    expect(await status('/src/main.tsx')).toBe(200);
    expect(await status(`/@fs${path.join(root, 'supabase/functions/_shared/domain/auth-schemas.ts')}`)).toBe(200);
  });
});
