// Providers and clip styles are written once, as SQL enums the domain takes from the generated
// types; the plan tiers are the domain's and the listed plans must agree.
import { CLIP_STYLES, MAX_EPISODE_FILES } from '@domain/episodes';
import { POSTING_PROVIDERS, PROVIDER_IDS } from '@domain/connection-status';
import { PLAN_TIERS } from '@domain/plans';
import { describe, expect, it } from 'vitest';
import { withDb } from './db-support.ts';

async function single<T>(sql: string, params: unknown[] = []): Promise<T> {
  const { rows } = await withDb((db) => db.query(sql, params));
  return Object.values(rows[0])[0] as T;
}

describe('domain constants agree with the schema', () => {
  it('the providers and clip styles are the SQL enums, in their order', async () => {
    expect(await single(`select enum_range(null::public.provider)::text[]`)).toEqual([...PROVIDER_IDS]);
    expect(await single(`select enum_range(null::public.clip_style)::text[]`)).toEqual([...CLIP_STYLES]);
  });

  it.each([
    ['public', 'oauth_connections', 'provider', 'provider'],
    ['private', 'oauth_states', 'provider', 'provider'],
    ['public', 'scheduled_posts', 'provider', 'provider'],
    ['public', 'episodes', 'clip_style', 'clip_style'],
  ])('%s.%s.%s is of the enum type %s', async (schema, table, column, type) => {
    expect(
      await single(
        `select udt_schema || '.' || udt_name from information_schema.columns
          where table_schema = $1 and table_name = $2 and column_name = $3`,
        [schema, table, column],
      ),
    ).toBe(`public.${type}`);
  });

  it('scheduled posts go to every provider but the Google Drive one', async () => {
    expect(
      await single(
        `select pg_get_constraintdef(c.oid) from pg_catalog.pg_constraint c
          where c.conrelid = 'public.scheduled_posts'::regclass and c.conname = 'scheduled_posts_provider_check'`,
      ),
    ).toBe(`CHECK ((provider <> 'google'::provider))`);
  });

  it('the platforms clips are posted to, and the most open uploads, are the same in SQL', async () => {
    expect(await single(`select private.posting_providers()::text[]`)).toEqual([...POSTING_PROVIDERS]);
    expect(await single(`select private.max_open_episode_uploads()`)).toBe(MAX_EPISODE_FILES);
  });

  it('the listed plans are exactly the tiers', async () => {
    const { rows } = await withDb((db) => db.query<{ id: string }>(`select id from public.plans where listed order by sort_order`));
    expect(rows.map((row) => row.id)).toEqual([...PLAN_TIERS]);
  });
});
