import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoopbackUrl, localDefaultSecrets, misplacedLocalDefaults, refuseLocalDefaults } from './local-defaults.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const example = Object.fromEntries(
  readFileSync(path.join(root, '.env.example'), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

describe('local default secrets', () => {
  it('lets the local stack start with them', () => {
    expect(() => refuseLocalDefaults(example)).not.toThrow();
  });

  it('refuses to start a deployed function with the public Stripe webhook secret', () => {
    const deployed = { ...example, SUPABASE_URL: 'https://abcdefghijklmnop.supabase.co' };
    expect(() => refuseLocalDefaults(deployed)).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(misplacedLocalDefaults(deployed)).toEqual(
      expect.arrayContaining(['STRIPE_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', 'SUPABASE_JWT_SECRET', 'SUPABASE_SERVICE_ROLE_KEY']),
    );
    expect(() => refuseLocalDefaults({ ...deployed, ...Object.fromEntries(Object.keys(localDefaultSecrets).map((k) => [k, `real-${k}`])) })).not.toThrow();
  });

  it('knows every secret .env.example ships (a new one must be listed too)', () => {
    const secrets = Object.keys(example).filter(
      (name) => /SECRET|_KEY$|PASSWORD/.test(name) && !name.startsWith('VITE_') && name !== 'SUPABASE_ANON_KEY',
    );
    expect(secrets).toEqual(expect.arrayContaining(['STRIPE_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', 'SUPABASE_JWT_SECRET']));
    for (const name of secrets) expect(localDefaultSecrets[name], name).toBe(example[name]);
  });

  it.each([
    ['http://127.0.0.1:54321', true],
    ['http://localhost:54321', true],
    ['http://[::1]:54321', true],
    ['https://abcdefghijklmnop.supabase.co', false],
    ['http://127.0.0.1.example.com', false],
    [undefined, false],
  ])('%s is loopback: %s', (url, loopback) => {
    expect(isLoopbackUrl(url)).toBe(loopback);
  });
});

describe('every function', () => {
  it.each(['api', 'stripe-webhook'])('%s refuses local defaults before it serves', (name) => {
    const index = readFileSync(path.join(root, 'supabase', 'functions', name, 'index.ts'), 'utf8');
    expect(index).toMatch(/refuseLocalDefaults\(Deno\.env\.toObject\(\)\);[\s\S]*serveFunction\(/);
  });
});
