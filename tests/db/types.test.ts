// The committed database types are what scripts/gen-types.ts makes of the migrated database,
// and supabase-js accepts them.
import { readFile } from 'node:fs/promises';
import { PostgrestClient } from '@supabase/postgrest-js';
import { expect, it } from 'vitest';
import { generateTypes, typesFile } from '../../scripts/gen-types.ts';
import type { Database, Tables } from '../../supabase/functions/_shared/database.types.ts';
import { config } from '../support/stack.ts';
import { withDb } from './db-support.ts';

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
