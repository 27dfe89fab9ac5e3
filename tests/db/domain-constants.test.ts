// The lists the database checks and the constants in supabase/functions/_shared/domain are one
// list: the domain's constants are the home, and every check list in the schema must agree.
import { CLIP_STYLES } from '@domain/episodes';
import { PROVIDER_IDS } from '@domain/connection-status';
import { PLAN_TIERS } from '@domain/plans';
import { describe, expect, it } from 'vitest';
import { withDb } from './db-support.ts';

/** The values of an `x in ('a', 'b', ...)` check on a column, as Postgres stores the check. */
async function checkedValues(schema: string, table: string, column: string): Promise<string[]> {
  const { rows } = await withDb((db) =>
    db.query<{ definition: string }>(
      `select pg_get_constraintdef(c.oid) as definition
         from pg_catalog.pg_constraint c
         join pg_catalog.pg_class t on t.oid = c.conrelid
         join pg_catalog.pg_namespace n on n.oid = t.relnamespace
         join pg_catalog.pg_attribute a on a.attrelid = t.oid and a.attnum = any (c.conkey)
        where c.contype = 'c' and n.nspname = $1 and t.relname = $2 and a.attname = $3`,
      [schema, table, column],
    ),
  );
  const lists = rows.map((row) => [...row.definition.matchAll(/'([^']*)'::text/g)].map((match) => match[1]));
  expect(lists, `${schema}.${table}.${column} has one check list`).toHaveLength(1);
  return lists[0];
}

describe('domain constants agree with the schema', () => {
  it.each([
    ['public', 'oauth_connections'],
    ['private', 'oauth_states'],
  ])('%s.%s.provider allows exactly the providers', async (schema, table) => {
    expect(await checkedValues(schema, table, 'provider')).toEqual([...PROVIDER_IDS]);
  });

  it('scheduled posts go to every provider but the Google Drive one', async () => {
    expect(await checkedValues('public', 'scheduled_posts', 'provider')).toEqual(PROVIDER_IDS.filter((id) => id !== 'google'));
  });

  it('episodes allow exactly the clip styles', async () => {
    expect(await checkedValues('public', 'episodes', 'clip_style')).toEqual([...CLIP_STYLES]);
  });

  it('the listed plans are exactly the tiers', async () => {
    const { rows } = await withDb((db) => db.query<{ id: string }>(`select id from public.plans where listed order by sort_order`));
    expect(rows.map((row) => row.id)).toEqual([...PLAN_TIERS]);
  });
});
