// Providers and clip styles are written once, as SQL enums the domain takes from the generated
// types; the plan tiers are the domain's and the listed plans must agree.
import { CLIP_STYLES, MAX_EPISODE_FILES } from '@domain/episodes';
import { POSTING_PROVIDERS, PROVIDER_IDS } from '@domain/connection-status';
import { PLAN_TIERS } from '@domain/plans';
import { DEFAULT_POSTING_HOUR, DEFAULT_REVIEW_WINDOW, LOW_CONFIDENCE, REVIEW_HOLDS, REVIEW_WINDOWS } from '@domain/review';
import { CLIP_REVIEW_STATES } from '@domain/episode-clips';
import { SCHEDULED_POST_KINDS, SCHEDULED_POST_STATUSES } from '@domain/episode-page';
import { EMAIL_ESSENTIAL_KINDS, EMAIL_KINDS } from '@domain/email';
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

  it('the e-mail kinds, and the ones no subscriber may unsubscribe from, are the same in SQL (issue 43)', async () => {
    const listed = async (table: string, name: string) =>
      [...(await single<string>(`select pg_get_constraintdef(c.oid) from pg_catalog.pg_constraint c where c.conrelid = $1::regclass and c.conname = $2`, [table, name])).matchAll(/'([^']+)'::text/g)].map((match) => match[1]);
    expect(await listed('private.email_outbox', 'email_outbox_kind_check')).toEqual([...EMAIL_KINDS]);
    expect(await single(`select private.email_essential_kinds()`)).toEqual([...EMAIL_ESSENTIAL_KINDS]);
    expect(await listed('private.email_unsubscribes', 'email_unsubscribes_kind_check')).toEqual(
      EMAIL_KINDS.filter((kind) => !(EMAIL_ESSENTIAL_KINDS as readonly string[]).includes(kind)),
    );
  });

  it('the listed plans are exactly the tiers', async () => {
    const { rows } = await withDb((db) => db.query<{ id: string }>(`select id from public.plans where listed order by sort_order`));
    expect(rows.map((row) => row.id)).toEqual([...PLAN_TIERS]);
  });

  it('the review settings, holds, states and the confidence threshold are the same in SQL (issue 41)', async () => {
    const checkOf = async (table: string, name: string) =>
      single<string>(`select pg_get_constraintdef(c.oid) from pg_catalog.pg_constraint c where c.conrelid = $1::regclass and c.conname = $2`, [table, name]);
    const listed = (definition: string) => [...definition.matchAll(/'([^']+)'::text/g)].map((match) => match[1]);
    expect(listed(await checkOf('public.profiles', 'profiles_review_window_check'))).toEqual([...REVIEW_WINDOWS]);
    expect(listed(await checkOf('public.episode_processing', 'episode_processing_review_hold_check'))).toEqual([...REVIEW_HOLDS]);
    expect(listed(await checkOf('public.episode_clips', 'episode_clips_review_state_check'))).toEqual([...CLIP_REVIEW_STATES]);
    expect(listed(await checkOf('public.scheduled_posts', 'scheduled_posts_kind_check'))).toEqual([...SCHEDULED_POST_KINDS]);
    expect(listed(await checkOf('public.scheduled_posts', 'scheduled_posts_status_check'))).toEqual([...SCHEDULED_POST_STATUSES]);
    const defaults = await withDb(async (db) =>
      (await db.query(`select column_name, column_default from information_schema.columns
                        where table_schema = 'public' and table_name = 'profiles' and column_name in ('review_window', 'posting_hour')`)).rows,
    );
    expect(Object.fromEntries(defaults.map((row) => [row.column_name, row.column_default]))).toEqual({
      review_window: `'${DEFAULT_REVIEW_WINDOW}'::text`,
      posting_hour: String(DEFAULT_POSTING_HOUR),
    });
    expect(Number(await single(`select private.low_transcript_confidence()`))).toBe(LOW_CONFIDENCE);
  });
});
