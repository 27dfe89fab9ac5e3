// The committed database types are what scripts/gen-types.ts makes of the migrated database,
// and supabase-js accepts them; and the generator gives `Database` the shape Supabase's own
// generator (supabase gen types typescript) gives it, on a fixture schema.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PostgrestClient } from '@supabase/postgrest-js';
import { expect, it } from 'vitest';
import { generateTypes, typesFile } from '../../scripts/gen-types.ts';
import type { Database, Tables } from '../../supabase/functions/_shared/database.types.ts';
import { config } from '../support/stack.ts';
import { withDb } from './db-support.ts';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'typegen');

/** The same TypeScript, whatever the layout: no whitespace, no `;`/`,` separators, no leading `|`. */
const layoutFree = (types: string) => types.replace(/\s+/g, '').replace(/[;,]/g, '').replaceAll(':|', ':');

it('supabase/functions/_shared/database.types.ts matches the migrations (npm run gen:types)', async () => {
  const generated = await withDb((db) => generateTypes(db));
  expect(generated).toBe(await readFile(typesFile, 'utf8'));
});

it('types supabase-js queries and RPCs (checked by tsc)', async () => {
  // supabase-js's createClient needs WebSocket (Node 22+) for realtime; its PostgREST client does not.
  const client = new PostgrestClient<Database>(`${config.urls.api}/rest/v1`, { headers: { apikey: config.anonKey } });
  const { data, error } = await client
    .from('plans')
    .select('id, price_cents, episodes_per_month')
    .eq('listed', true)
    .order('sort_order');
  expect(error).toBeNull();
  const plans: Pick<Tables<'plans'>, 'id' | 'price_cents' | 'episodes_per_month'>[] = data ?? [];
  expect(plans.map((plan) => [plan.id, plan.price_cents, plan.episodes_per_month])).toEqual([
    ['starter', 19900, 1],
    ['growth', 49900, 2],
    ['scale', 119900, 4],
  ]);
  const stats = await client.rpc('episode_stats');
  expect(stats.error?.code).toBe('42501');
});

it("gives the fixture schema's `Database` the shape supabase's generator gives it", async () => {
  // A throwaway database, so the fixture never meets the migrated schema.
  const name = `typegen_${randomUUID().replaceAll('-', '')}`;
  await withDb((db) => db.query(`create database ${name}`));
  try {
    const url = new URL(config.urls.db);
    url.pathname = `/${name}`;
    const generated = await withDb(async (db) => {
      await db.query(await readFile(path.join(fixtures, 'schema.sql'), 'utf8'));
      return generateTypes(db);
    }, url.toString());
    const start = generated.indexOf('public: {');
    const publicSchema = generated.slice(start, generated.indexOf('\n}\n', start));
    expect(layoutFree(publicSchema)).toBe(
      layoutFree(await readFile(path.join(fixtures, 'database-public.expected.txt'), 'utf8')),
    );
  } finally {
    await withDb((db) => db.query(`drop database ${name} with (force)`));
  }
});
