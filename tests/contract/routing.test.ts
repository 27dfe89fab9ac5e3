// What every local service answers where no route matches, through the shared router
// (local/lib/router.ts): each keeps its upstream's shape, headers and status.
import { describe, expect, it } from 'vitest';
import { config } from '../support/stack.ts';

const api = config.urls.api;
const keyed = { apikey: config.anonKey, 'x-supabase-api-version': '2024-01-01' };

describe('the gateway', () => {
  it("answers Kong's 404 outside its services, and its 400 for a path with broken percent-encoding", async () => {
    const unknown = await fetch(`${api}/graphql/v1`);
    expect([unknown.status, await unknown.json()]).toEqual([404, { message: 'no Route matched with those values' }]);
    const broken = await fetch(`${api}/storage/v1/object/public/avatars/%E0%A4%A`);
    expect([broken.status, await broken.json()]).toEqual([400, { message: 'Bad request' }]);
  });
});

describe('Auth', () => {
  it("answers GoTrue's 405 for a known path and 404 for an unknown one, with its version header", async () => {
    const wrongMethod = await fetch(`${api}/auth/v1/signup`, { method: 'DELETE', headers: keyed });
    expect([wrongMethod.status, await wrongMethod.json()]).toEqual([405, { code: 'method_not_allowed', message: 'Method Not Allowed' }]);
    expect(wrongMethod.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    const unknown = await fetch(`${api}/auth/v1/nothing-here`, { headers: keyed });
    expect([unknown.status, await unknown.json()]).toEqual([404, { code: 'not_found', message: 'Not Found' }]);
  });

  it('takes a path with a trailing slash as GoTrue does', async () => {
    const health = await fetch(`${api}/auth/v1/settings/`, { headers: keyed });
    expect(health.status).toBe(200);
    expect(health.headers.get('x-supabase-api-version')).toBe('2024-01-01');
  });
});

describe('Storage', () => {
  it("answers storage-api's route-not-found body, and a bare status to HEAD", async () => {
    const unknown = await fetch(`${api}/storage/v1/nothing-here`, { headers: { apikey: config.anonKey } });
    expect([unknown.status, await unknown.json()]).toEqual([
      400,
      { statusCode: '404', code: 'NotFound', error: 'Not Found', message: 'Route not found' },
    ]);
    const head = await fetch(`${api}/storage/v1/object/public/no-such-bucket/a.txt`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([400, '']);
  });
});

describe('the sandbox', () => {
  it('answers {message} for what no sandbox module handles, never cached', async () => {
    const unknown = await fetch(`${config.urls.sandbox}/nothing-here`);
    expect([unknown.status, await unknown.json()]).toEqual([404, { message: 'No sandbox handles GET /nothing-here' }]);
    expect(unknown.headers.get('cache-control')).toBe('no-store');
  });

  it('routes an id longer than find-my-way’s default parameter limit', async () => {
    const id = `cs_test_${'a'.repeat(200)}`;
    const page = await fetch(`${config.urls.sandbox}/checkout/${id}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain(`There is no checkout session ${id}.`);
  });
});
