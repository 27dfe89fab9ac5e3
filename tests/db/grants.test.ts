// What each API role may do with every table, sequence and function of ours, granted explicitly.
// Hosted Supabase no longer grants what `postgres` creates in public to anon, authenticated and
// service_role (changelog 45329); the local bootstrap does the same, so a grant a migration
// forgets shows here (and as a 42501 in the functions' tests) instead of in production.
// A new table, view, sequence or function must be added below: deciding who may use it is
// part of adding it.
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../local/config.ts';
import { config } from '../support/stack.ts';
import { jwtFor, withDb } from './db-support.ts';

const roles = ['anon', 'authenticated', 'service_role'] as const;
type Role = (typeof roles)[number];

/** The Data API privileges each role holds, per object; '' is none. */
type Grants = Record<Role, string>;

const none: Grants = { anon: '', authenticated: '', service_role: '' };
const serviceDml = 'select, insert, update, delete';
/** Rows a signed-in caller reads through RLS; the server (service key) reads and writes all. */
const ownRowsRead: Grants = { anon: '', authenticated: 'select', service_role: serviceDml };

const profileColumns = [
  'first_name',
  'last_name',
  'profile_image_url',
  'brand_font',
  'brand_color_primary',
  'brand_color_secondary',
  'brand_color_tertiary',
  'podcast_title',
  'podcast_description',
  'podcast_author',
  'podcast_copyright',
  'podcast_keywords',
  'podcast_website',
  'podcast_language',
  'podcast_timezone',
  'podcast_primary_category',
  'podcast_secondary_category',
  'post_automatically',
  'review_window',
  'posting_hour',
  // Not the brand asset paths: only the api sets them, once it checked the file's bytes.
];

const relations: Record<string, Grants> = {
  'public.plans': { anon: 'select', authenticated: 'select', service_role: serviceDml },
  'public.profiles': {
    anon: '',
    authenticated: `select, update(${profileColumns.join(', ')})`,
    service_role: serviceDml,
  },
  'public.subscriptions': ownRowsRead,
  'public.oauth_connections': ownRowsRead,
  'public.episodes': ownRowsRead,
  'public.submission_logs': ownRowsRead,
  'public.webhook_deliveries': ownRowsRead,
  'public.admin_audit_log': ownRowsRead,
  'public.admin_audit_log_id_seq': { anon: '', authenticated: '', service_role: 'usage, select' },
  'public.episode_processing': ownRowsRead,
  'public.episode_clips': ownRowsRead,
  'public.podcast_episode_files': ownRowsRead,
  'public.episode_transcripts': ownRowsRead,
  'public.podcast_feeds': ownRowsRead,
  'public.extra_episodes': ownRowsRead,
  'public.scheduled_posts': ownRowsRead,
  // Server-only: reached through the functions' direct connection (as postgres), never the API.
  'private.stripe_events': none,
  'private.second_subscriptions': none,
  'private.checkout_recoveries': none,
  'private.oauth_tokens': none,
  'private.oauth_states': none,
  'private.open_episode_uploads': none,
  'private.processing_requests': none,
  'private.processing_piece_results': none,
  'private.automation_settings': none,
  'private.account_credential_changes': none,
  'private.storage_usage': { anon: '', authenticated: '', service_role: 'select' },
  'private.checked_episode_files': none,
  'private.podcast_feed_builds': none,
  'private.email_outbox': none,
  'private.email_unsubscribes': none,
  'private.processing_plans': none,
  'private.processing_pieces_done': none,
  'private.writing_usage': none,
};

const exec = (...who: Role[]): Grants => ({
  anon: who.includes('anon') ? 'execute' : '',
  authenticated: who.includes('authenticated') ? 'execute' : '',
  service_role: who.includes('service_role') ? 'execute' : '',
});

const functions: Record<string, Grants> = {
  // RPCs the SPA and the api function call with the caller's token.
  'public.current_account()': exec('authenticated', 'service_role'),
  'public.is_admin()': exec('authenticated', 'service_role'),
  'public.episode_stats()': exec('authenticated', 'service_role'),
  'public.dashboard_stats()': exec('authenticated', 'service_role'),
  'public.submit_episode(text[],jsonb)': exec('authenticated'),
  'public.retry_episode(uuid)': exec('authenticated'),
  'public.complete_onboarding()': exec('authenticated'),
  'public.onboarding_profile()': exec('authenticated'),
  'public.resubmit_submission(text[],text,jsonb,uuid)': exec('authenticated'),
  'public.admin_submission_logs(timestamp with time zone,uuid,integer)': exec('authenticated'),
  'public.admin_episode_files(text,integer)': exec('authenticated'),
  'public.admin_resubmit_submission(text[],text,jsonb,uuid)': exec('authenticated'),
  'public.admin_find_subscriber(text)': exec('authenticated'),
  'public.admin_mark_hosting_ready(text,boolean)': exec('authenticated'),
  'public.admin_hosting_setups(timestamp with time zone,uuid,integer)': exec('authenticated'),
  'public.admin_set_internal_test_account(text,boolean)': exec('authenticated'),
  'public.admin_set_admin_role(text,boolean)': exec('authenticated'),
  'public.episode_page(uuid)': exec('authenticated'),
  'public.postpone_scheduled_post(uuid,timestamp with time zone)': exec('authenticated'),
  'public.cancel_scheduled_post(uuid)': exec('authenticated'),
  'public.post_scheduled_post_now(uuid)': exec('authenticated'),
  // Helpers the RPCs and policies above run as the caller.
  'private.is_admin()': exec('authenticated', 'service_role'),
  'private.brand_asset_slot(text)': exec('authenticated', 'service_role'),
  'private.is_submitted_episode_file(text)': exec('authenticated', 'service_role'),
  'private.normalize_episode_options(jsonb,text[],integer)': exec('authenticated', 'service_role'),
  'private.is_blank(text)': exec('authenticated', 'service_role'),
  'private.social_connected(uuid)': exec('authenticated', 'service_role'),
  'private.episode_stats_for(uuid,timestamp with time zone)': exec('authenticated', 'service_role'),
  'private.connection_display_state(provider,boolean,text,boolean,boolean,timestamp with time zone,timestamp with time zone,timestamp with time zone,timestamp with time zone)':
    exec('authenticated', 'service_role'),
  'private.submit_episode(text[],jsonb)': exec('authenticated'),
  'private.retry_episode(uuid)': exec('authenticated'),
  'private.episode_outcome(uuid)': exec('authenticated', 'service_role'),
  'private.episode_reached_subscriber(uuid)': exec('authenticated', 'service_role'),
  'private.episode_uses_allowance(uuid)': exec('authenticated', 'service_role'),
  'public.open_episode_upload(text,bigint)': exec('authenticated'),
  'public.rename_episode(uuid,text)': exec('authenticated'),
  'private.rename_episode(uuid,text)': exec('authenticated'),
  'private.normalize_guests(jsonb)': exec('authenticated', 'service_role'),
  'private.record_suggested_title(uuid,text)': exec('service_role'),
  'public.check_episode_submission()': exec('authenticated'),
  'private.check_episode_submission()': exec('authenticated'),
  'private.require_room_to_submit(uuid,timestamp with time zone)': exec(),
  'public.close_episode_upload(text)': exec('authenticated'),
  'private.open_episode_upload(text,bigint)': exec('authenticated'),
  'private.close_episode_upload(text)': exec('authenticated'),
  'private.is_open_episode_upload(text,jsonb)': exec('authenticated'),
  'private.max_open_episode_uploads()': exec('authenticated', 'service_role'),
  'private.open_upload_bytes(uuid)': exec('service_role'),
  'private.end_open_episode_upload()': exec(),
  'private.timestamp_seconds(text)': exec('authenticated', 'service_role'),
  'private.check_trim_against_length(jsonb,numeric)': exec('authenticated', 'service_role'),
  'private.change_scheduled_post(uuid,text,timestamp with time zone)': exec('authenticated'),
  'private.scheduled_post_json(scheduled_posts)': exec('authenticated', 'service_role'),
  'private.episode_clip_json(episode_clips)': exec('authenticated', 'service_role'),
  // The worker's and the functions' state changes (20261128110100_processing_state.sql).
  'private.processing_job(uuid)': exec('service_role'),
  'private.record_writing_usage(uuid,jsonb)': exec('service_role'),
  'private.processing_started(uuid,text)': exec('service_role'),
  'private.processing_piece_started(uuid,text,text,boolean)': exec('service_role'),
  'private.processing_progress(uuid,text,integer)': exec('service_role'),
  'private.processing_attempt_failed(uuid,text)': exec('service_role'),
  'private.processing_failed(uuid,text,boolean)': exec('service_role'),
  'private.record_drive_folder(uuid,text,text)': exec('service_role'),
  'private.record_episode_content(uuid,jsonb)': exec('service_role'),
  'private.record_output(uuid,jsonb)': exec('service_role'),
  'private.record_episode_clips(uuid,jsonb)': exec('service_role'),
  'private.record_clip_file(uuid,text,text)': exec('service_role'),
  'private.posting_providers()': exec('service_role'),
  'private.processing_delivered(uuid)': exec('service_role'),
  'private.save_processing_plan(uuid,uuid,jsonb,integer)': exec('service_role'),
  'private.processing_plan(uuid,uuid)': exec('service_role'),
  'private.drop_processing_plan(uuid)': exec('service_role'),
  'private.record_piece_done(uuid,integer)': exec('service_role'),
  'private.pieces_done(uuid)': exec('service_role'),
  'private.processing_to_enqueue(integer)': exec('service_role'),
  'private.processing_enqueued(uuid)': exec('service_role'),
  'private.claim_due_posts(integer)': exec('service_role'),
  'private.post_published(uuid,text)': exec('service_role'),
  'private.post_attempt_failed(uuid,text,boolean,double precision)': exec('service_role'),
  'private.record_token_refresh(uuid,text,text,text,text,timestamp with time zone)': exec('service_role'),
  'private.record_token_refresh_failure(uuid,text,boolean)': exec('service_role'),
  'private.record_podcast_files(uuid,text,bigint,numeric,text)': exec('service_role'),
  // Review before posting (20261128110400): the subscriber's actions, each checking what the caller owns...
  'public.review_clip(uuid,text)': exec('authenticated'),
  'public.approve_episode(uuid)': exec('authenticated'),
  'public.change_episode_posts(uuid,text,integer)': exec('authenticated'),
  'public.update_clip_texts(uuid,text,jsonb)': exec('authenticated'),
  'public.set_clip_moment(uuid,integer,integer)': exec('authenticated'),
  'public.update_blog_post(uuid,text,text)': exec('authenticated'),
  'public.update_show_notes(uuid,text,jsonb,jsonb)': exec('authenticated'),
  'public.save_transcript(uuid,integer,jsonb)': exec('authenticated'),
  'private.review_clip(uuid,text)': exec('authenticated'),
  'private.approve_episode(uuid)': exec('authenticated'),
  'private.change_episode_posts(uuid,text,integer)': exec('authenticated'),
  'private.update_clip_texts(uuid,text,jsonb)': exec('authenticated'),
  'private.set_clip_moment(uuid,integer,integer)': exec('authenticated'),
  'private.update_blog_post(uuid,text,text)': exec('authenticated'),
  'private.update_show_notes(uuid,text,jsonb,jsonb)': exec('authenticated'),
  'private.save_transcript(uuid,integer,jsonb)': exec('authenticated'),
  'private.next_posting_time(uuid,timestamp with time zone)': exec('authenticated', 'service_role'),
  'private.low_transcript_confidence()': exec('authenticated', 'service_role'),
  'private.x_length(text)': exec('authenticated', 'service_role'),
  // A retry reuses an earlier attempt's pieces (20261128110500): the worker's.
  'private.record_piece_result(uuid,text,text,boolean)': exec('service_role'),
  'private.reusable_piece(uuid,text)': exec('service_role'),
  'private.podcast_artwork_path(uuid)': exec('service_role'),
  // ...what the page reads of the review (the edits under way are the server's: a definer, owner-checked)...
  'public.episode_transcript(uuid)': exec('authenticated'),
  'private.pending_edits(uuid)': exec('authenticated'),
  // ...their helpers, called only inside security definer functions...
  'private.own_clip(uuid)': none,
  'private.own_delivered_processing(uuid)': none,
  'private.request_processing(uuid,text,uuid[])': none,
  // ...and the worker's.
  'private.record_transcript(uuid,jsonb)': exec('service_role'),
  'private.release_clips(uuid,uuid[],timestamp with time zone)': exec('service_role'),
  'private.release_episode(uuid,timestamp with time zone)': exec('service_role'),
  'private.release_due_reviews()': exec('service_role'),
  'private.requests_to_enqueue(integer)': exec('service_role'),
  'private.request_enqueued(uuid)': exec('service_role'),
  'private.request_done(uuid)': exec('service_role'),
  'private.request_failed(uuid,text)': exec('service_role'),
  'private.record_clip_render(uuid,text,text,numeric)': exec('service_role'),
  'private.article_published(uuid,bigint,text)': exec('service_role'),
  'private.delivered_plan(uuid)': exec('service_role'),
  'private.public_episode_link(uuid)': exec('service_role'),
  'private.post_waits_for_video(uuid)': exec('service_role'),
  // The feed builder's (20261128140000_podcast_feeds.sql); the queue's triggers run as their owner.
  'private.claim_podcast_feed_builds(integer,interval)': exec('service_role'),
  'private.podcast_feed_source(uuid)': exec('service_role'),
  'private.record_podcast_feed_build(uuid,timestamp with time zone,text[],integer,text,text,text[],jsonb)': exec('service_role'),
  'private.record_podcast_feed_failure(uuid,text)': exec('service_role'),
  'private.request_podcast_feed_build(uuid)': exec(),
  'private.call_podcast_feed_builder()': exec(),
  'private.podcast_feed_follows_profile()': exec(),
  'private.podcast_feed_follows_episode_files()': exec(),
  'private.podcast_feed_follows_episode()': exec(),
  'public.podcast_feed()': exec('authenticated'),
  // Transactional e-mail (20261128170000_transactional_email.sql): the sender's and the api's
  // (over the functions' own connection), the triggers' run as their owner.
  'private.record_extra_episode(uuid,text,text,integer,text,timestamp with time zone)': exec('service_role'),
  'private.claim_emails(integer,interval)': exec('service_role'),
  'private.record_email_attempt(uuid,boolean,text,interval,boolean)': exec('service_role'),
  'private.email_unsubscribe(uuid,text)': exec('service_role'),
  'private.email_essential_kinds()': exec(),
  'private.call_email_sender()': exec(),
  'private.queue_email(uuid,text,text,jsonb)': exec(),
  'private.email_on_episode()': exec(),
  'private.email_on_processing()': exec(),
  'private.email_on_submission_log()': exec(),
  'private.email_on_hosting_ready()': exec(),
  'private.email_on_connection()': exec(),
  'private.brand_asset_exists(text,text[])': exec('authenticated'),
  'private.complete_onboarding()': exec('authenticated'),
  'private.resubmit_submission(uuid,text[],text,jsonb)': exec('authenticated'),
  'private.submission_automation(uuid)': exec('authenticated'),
  'private.attachment_state(text,text[])': exec('authenticated'),
  'private.admin_find_subscriber(text)': exec('authenticated'),
  'private.require_admin()': exec('authenticated'),
  'private.check_page_size(integer)': exec('authenticated'),
  'private.admin_mark_hosting_ready(text,boolean)': exec('authenticated'),
  'private.admin_hosting_setups(timestamp with time zone,uuid,integer)': exec('authenticated'),
  'private.admin_set_internal_test_account(text,boolean)': exec('authenticated'),
  'private.admin_set_admin_role(text,boolean)': exec('authenticated'),
  'private.jwt_session_is_live()': exec('authenticated'),
  // Service-only: billing, the outbox and the worker's automation switch.
  'private.claim_webhook_deliveries(integer,interval)': exec('service_role'),
  'private.record_webhook_attempt(uuid,boolean,integer,text,interval,boolean)': exec('service_role'),
  'private.webhook_delivery_context(uuid[])': exec('service_role'),
  'private.remember_stripe_customer(uuid,text)': exec('service_role'),
  'private.record_stripe_event(text,text,timestamp with time zone,uuid,text,text,text,text,timestamp with time zone,boolean,text,timestamp with time zone)':
    exec('service_role'),
  'private.note_second_subscription(text,text,text)': exec('service_role'),
  'private.settle_second_subscription(text,integer,text[])': exec('service_role'),
  'private.claim_checkout_recovery(text,uuid,timestamp with time zone)': exec('service_role'),
  'private.active_automation()': exec('service_role'),
  // Run only by other security definer functions, triggers and jobs (as their owner).
  'private.check_episode_files(text[],uuid)': exec(),
  'private.missing_onboarding_fields(uuid)': exec(),
  'private.note_credential_change()': exec(),
  'private.processing_limits(uuid)': exec('service_role'),
  // Storage rules: the trigger and its usage bookkeeping run as their owner; the cleanup job and
  // the quota reads are the service role's.
  'private.enforce_storage_rules()': exec(),
  'private.account_storage_usage()': exec(),
  'private.object_bytes(jsonb)': exec('service_role'),
  'private.object_user(text,text)': exec('service_role'),
  'private.storage_quota_bytes(uuid)': exec('service_role'),
  'private.stale_episode_uploads(interval,integer)': exec('service_role'),
  'private.stale_processing_pieces(interval,integer)': exec('service_role'),
  'private.change_user_email(uuid,text)': exec(),
  'private.invoke_edge_function(text,jsonb,integer)': exec(),
  'private.subscriber_summary(uuid)': exec(),
  'private.account_id_by_email(text)': exec(),
  'private.record_admin_action(text,uuid,jsonb)': exec(),
  'private.set_updated_at()': exec(),
  'private.create_profile_for_new_user()': exec(),
  'private.sync_profile_email()': exec(),
  'private.ignore_stale_subscription_event()': exec(),
  'private.sync_connection_token_flags()': exec(),
  'private.refuse_email_change()': exec(),
  'private.audit_resubmission()': exec(),
  'private.queue_episode_processing()': exec(),
  'private.skip_delivery_taken_by_worker()': exec(),
  'private.episode_first_attempt()': exec(),
  'private.block_reason_detail(text)': exec(),
  'private.log_own_submission(uuid,uuid,text[],jsonb,uuid,timestamp with time zone)': exec(),
  'private.start_hosting_setup_on_onboarding()': exec(),
};

const rolesSql = `(values ('anon'), ('authenticated'), ('service_role')) as r(role)`;

/** Each relation's privileges per role, as the catalog answers them. */
async function relationGrants(): Promise<Record<string, Grants>> {
  const rows = await withDb(
    async (db) =>
      (
        await db.query<{ name: string; role: Role; privileges: string }>(`
        select n.nspname || '.' || c.relname as name, r.role,
               concat_ws(', ',
                 case when c.relkind = 'S' and has_sequence_privilege(r.role, c.oid, 'usage') then 'usage' end,
                 case when has_table_privilege(r.role, c.oid, 'select') then 'select' end,
                 case when c.relkind <> 'S' and has_table_privilege(r.role, c.oid, 'insert') then 'insert' end,
                 case when has_table_privilege(r.role, c.oid, 'update') then 'update'
                      else (select 'update(' || string_agg(a.attname, ', ' order by a.attnum) || ')'
                              from pg_catalog.pg_attribute a
                             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                               and has_column_privilege(r.role, c.oid, a.attnum, 'update')) end,
                 case when c.relkind <> 'S' and has_table_privilege(r.role, c.oid, 'delete') then 'delete' end
               ) as privileges
          from pg_catalog.pg_class c
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         cross join ${rolesSql}
         where n.nspname in ('public', 'private') and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')`)
      ).rows,
  );
  const result: Record<string, Grants> = {};
  for (const row of rows) (result[row.name] ??= { ...none })[row.role] = row.privileges;
  return result;
}

async function functionGrants(): Promise<Record<string, Grants>> {
  const rows = await withDb(
    async (db) =>
      (
        await db.query<{ name: string; role: Role; execute: boolean }>(`
        select n.nspname || '.' || p.proname || '(' || pg_catalog.oidvectortypes(p.proargtypes) || ')' as name,
               r.role, has_function_privilege(r.role, p.oid, 'execute') as execute
          from pg_catalog.pg_proc p
          join pg_catalog.pg_namespace n on n.oid = p.pronamespace
         cross join ${rolesSql}
         where n.nspname in ('public', 'private')`)
      ).rows,
  );
  const result: Record<string, Grants> = {};
  for (const row of rows)
    (result[row.name.replaceAll(', ', ',')] ??= { ...none })[row.role] = row.execute ? 'execute' : '';
  return result;
}

interface Reach {
  where: string;
  role: Role;
  object: string;
  privileges: string[];
}

/**
 * Every table and RPC the code reaches through supabase-js (`.from('table')`, `.rpc('fn')`),
 * with the role it runs as (the service client's, else the signed-in caller's) and what it does.
 */
function reachesThroughTheDataApi(): Reach[] {
  const roots = ['supabase/functions', 'web/src', 'local', 'worker'];
  const files = roots.flatMap((root) =>
    readdirSync(path.join(repoRoot, root), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => path.join(root, file)),
  );
  const reaches: Reach[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    for (const match of text.matchAll(/(?<!storage\s*)\.(from|rpc)\(\s*'([a-z_]+)'/g)) {
      const before = text.slice(Math.max(0, match.index - 300), match.index);
      const statementStart = Math.max(before.lastIndexOf(';'), before.lastIndexOf('{'));
      const client = before.slice(statementStart + 1);
      const role: Role =
        /serviceClient\(/.test(client) || file === 'local/demo-accounts.ts' ? 'service_role' : 'authenticated';
      const after = text.slice(match.index, match.index + 200);
      const operation = /\.(select|insert|update|upsert|delete)\(/.exec(after)?.[1] ?? 'select';
      const privileges = match[1] === 'rpc' ? ['execute'] : operation === 'upsert' ? ['insert', 'update'] : [operation];
      const line = text.slice(0, match.index).split('\n').length;
      reaches.push({ where: `${file}:${line}`, role, object: `public.${match[2]}`, privileges });
    }
  }
  return reaches;
}

describe('explicit grants', () => {
  it('the bootstrap is a new hosted project: what postgres creates in public grants the API roles nothing', async () => {
    const probe = await withDb(async (db) => {
      await db.query('begin');
      try {
        await db.query('create table public.grants_probe (id int); create sequence public.grants_probe_seq');
        await db.query('create function public.grants_probe_fn() returns int language sql as $$ select 1 $$');
        const { rows } = await db.query<{ role: Role; dml: boolean; seq: boolean; own_grant: boolean }>(`
          select r.role,
                 has_table_privilege(r.role, 'public.grants_probe', 'select, insert, update, delete') as dml,
                 has_sequence_privilege(r.role, 'public.grants_probe_seq', 'usage, select, update') as seq,
                 coalesce(p.proacl::text, '') like '%' || r.role || '=X%' as own_grant
            from ${rolesSql}, pg_catalog.pg_proc p
           where p.oid = 'public.grants_probe_fn()'::regprocedure
           order by 1`);
        return rows;
      } finally {
        await db.query('rollback');
      }
    });
    expect(probe).toEqual(roles.map((role) => ({ role, dml: false, seq: false, own_grant: false })));
  });

  it('every table, view and sequence in public and private grants each role exactly what it needs', async () => {
    expect(await relationGrants()).toEqual(relations);
  });

  it('every function in public and private is executable by exactly the roles that need it', async () => {
    expect(await functionGrants()).toEqual(functions);
  });

  it('no function of ours relies on the PUBLIC default: each role that runs one holds its own grant', async () => {
    const relying = await withDb(
      async (db) =>
        (
          await db.query(`
          select p.oid::regprocedure::text as name
            from pg_catalog.pg_proc p
           where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
             and (p.proacl is null or exists (select 1 from aclexplode(p.proacl) a where a.grantee = 0))`)
        ).rows,
    );
    expect(relying).toEqual([]);
  });

  it('every table and RPC the code reaches through supabase-js is granted to the role that reaches it', () => {
    const reaches = reachesThroughTheDataApi();
    expect(reaches.length).toBeGreaterThan(10);
    const granted = (reach: Reach): boolean => {
      const grants =
        relations[reach.object] ?? Object.entries(functions).find(([name]) => name.startsWith(`${reach.object}(`))?.[1];
      const held = (grants?.[reach.role] ?? '').split(', ').map((privilege) => privilege.replace(/\(.*$/, ''));
      return reach.privileges.every((privilege) => held.includes(privilege));
    };
    expect(reaches.filter((reach) => !granted(reach))).toEqual([]);
  });

  it('the Data API serves each table to exactly the roles granted select on it', async () => {
    const tokens: Record<Role, string> = {
      anon: config.anonKey,
      authenticated: await jwtFor({ id: randomUUID() }),
      service_role: config.serviceRoleKey,
    };
    const served: Record<string, Record<Role, boolean>> = {};
    const wanted: Record<string, Record<Role, boolean>> = {};
    for (const [name, grants] of Object.entries(relations)) {
      const [schema, table] = name.split('.');
      if (schema !== 'public' || table.endsWith('_seq')) continue;
      wanted[table] = { anon: false, authenticated: false, service_role: false };
      served[table] = { anon: false, authenticated: false, service_role: false };
      for (const role of roles) {
        wanted[table][role] = grants[role].split(', ').includes('select');
        const res = await fetch(`${config.urls.api}/rest/v1/${table}?select=*&limit=0`, {
          headers: { apikey: config.anonKey, authorization: `Bearer ${tokens[role]}` },
        });
        const body = (await res.json()) as unknown;
        if (res.ok) served[table][role] = true;
        else expect((body as { code?: string }).code, `${role} on ${table}: ${res.status}`).toBe('42501');
      }
    }
    expect(served).toEqual(wanted);
  });
});
