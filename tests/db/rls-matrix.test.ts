// Row-level security, cell by cell: every table and bucket x anon / another subscriber / the
// owner / an administrator x select / insert / update / delete. A number is the rows a select
// returns or a write touches; 'denied' is a 42501 refusal (no privilege or a policy violation).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '../support/stack.ts';
import {
  type Actor,
  addCheckedEpisodeFile,
  addObject,
  connectGoogle,
  createReadySubscriber,
  createUser,
  inRolledBackTx,
  jwtFor,
  markEpisodeFileChecked,
  runAs,
  subscribe,
  withDb,
} from './db-support.ts';

type Who = 'anon' | 'other' | 'owner' | 'admin';
type Expect = number | 'denied';
type Row = Record<Who, Expect>;
interface Cell {
  sql: string;
  expect: Row;
}
type Op = 'select' | 'insert' | 'update' | 'delete';

const all = (value: Expect): Row => ({ anon: value, other: value, owner: value, admin: value });

let owner: { id: string; email: string };
let other: { id: string; email: string };
let admin: { id: string; email: string };
let ownerLogId: string;
const ownerSubmittedVideo = () => `${owner.id}/uploads/submitted.mp4`;

beforeAll(async () => {
  await withDb(async (db) => {
    owner = await createReadySubscriber(db, 'growth');
    other = await createReadySubscriber(db, 'starter');
    admin = await createUser(db, { admin: true });
    await db.query(
      `insert into private.oauth_states (state, user_id, provider, code_verifier) values ($1, $2, 'google', 'verifier')`,
      [`state-${randomUUID()}`, owner.id],
    );
    await db.query(
      `insert into private.stripe_events (id, type, created_at) values ($1, 'customer.subscription.updated', now())`,
      [`evt_${randomUUID()}`],
    );
    // The owner opened the upload the matrix inserts (POST /api/objects/upload does, before any upload).
    await db.query(
      `insert into private.open_episode_uploads (name, user_id, declared_bytes, expires_at) values ($1 || '/uploads/new.mp4', $1::uuid, 1024, now() + interval '1 day')`,
      [owner.id],
    );
    // Each has a podcast feed (onboarding makes it; the matrix needs the rows alone).
    await db.query(`insert into public.podcast_feeds (user_id) select unnest($1::uuid[])`, [[owner.id, other.id]]);
    // The owner bought one extra episode, last month (the webhook's record; this month's allowance is another test's).
    await db.query(`select private.record_extra_episode($1::uuid, 'cs_matrix_' || $1::text, null, 29900, 'usd', now() - interval '40 days')`, [owner.id]);
    for (const user of [owner, other]) {
      await addObject(db, 'episodes', `${user.id}/uploads/draft.mp4`, 'video/mp4');
      await addCheckedEpisodeFile(db, `${user.id}/uploads/submitted.mp4`);
      await addObject(db, 'brand-assets', `${user.id}/logo/logo.png`, 'image/png');
    }
    // The owner's submission, made the only way there is.
    await db.query('begin');
    await runAs(db, { id: owner.id }, `select public.submit_episode(array[$1], '{}')`, [ownerSubmittedVideo()], true);
    await db.query('commit');
    const { rows } = await db.query(`select id from public.submission_logs where user_id = $1`, [owner.id]);
    ownerLogId = rows[0].id;
    await db.query(`insert into public.admin_audit_log (admin_id, action, target_user_id) values ($1, 'subscriber.lookup', $2)`, [
      admin.id,
      owner.id,
    ]);
  });
});

function actor(who: Who): Actor {
  if (who === 'anon') return 'anon';
  if (who === 'owner') return { id: owner.id };
  if (who === 'other') return { id: other.id };
  return { id: admin.id, admin: true };
}

/** Placeholders: $owner, $new (a fresh uuid), $log (the owner's submission log). */
function bind(sql: string): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const text = sql.replace(/\$(owner|new|log)\b/g, (_, name: string) => {
    params.push(name === 'owner' ? owner.id : name === 'new' ? randomUUID() : ownerLogId);
    return `$${params.length}`;
  });
  return { text, params };
}

// Server-only tables in the unexposed `private` schema: no API role may touch them.
const privateTables: Record<string, Record<Op, Cell>> = {
  podcast_feed_builds: {
    select: { sql: `select chapter_hashes from private.podcast_feed_builds where user_id = $owner`, expect: all('denied') },
    insert: { sql: `insert into private.podcast_feed_builds (user_id, requested_at) values ($owner, now())`, expect: all('denied') },
    update: { sql: `update private.podcast_feed_builds set requested_at = null where user_id = $owner`, expect: all('denied') },
    delete: { sql: `delete from private.podcast_feed_builds where user_id = $owner`, expect: all('denied') },
  },
  email_outbox: {
    select: { sql: `select recipient from private.email_outbox where user_id = $owner`, expect: all('denied') },
    insert: {
      sql: `insert into private.email_outbox (event_key, kind, user_id, recipient) values ('matrix:' || $new, 'delivered', $owner, 'x@example.com')`,
      expect: all('denied'),
    },
    update: { sql: `update private.email_outbox set sent_at = now() where user_id = $owner`, expect: all('denied') },
    delete: { sql: `delete from private.email_outbox where user_id = $owner`, expect: all('denied') },
  },
  email_unsubscribes: {
    select: { sql: `select kind from private.email_unsubscribes where user_id = $owner`, expect: all('denied') },
    insert: { sql: `insert into private.email_unsubscribes (user_id, kind) values ($owner, 'delivered')`, expect: all('denied') },
    update: { sql: `update private.email_unsubscribes set unsubscribed_at = now() where user_id = $owner`, expect: all('denied') },
    delete: { sql: `delete from private.email_unsubscribes where user_id = $owner`, expect: all('denied') },
  },
  oauth_tokens: {
    select: {
      sql: `select access_token_encrypted from private.oauth_tokens where user_id = $owner`,
      expect: all('denied'),
    },
    insert: {
      sql: `insert into private.oauth_tokens (connection_id, user_id) values ($new, $owner)`,
      expect: all('denied'),
    },
    update: {
      sql: `update private.oauth_tokens set access_token_encrypted = 'x' where user_id = $owner`,
      expect: all('denied'),
    },
    delete: { sql: `delete from private.oauth_tokens where user_id = $owner`, expect: all('denied') },
  },
  oauth_states: {
    select: { sql: `select code_verifier from private.oauth_states where user_id = $owner`, expect: all('denied') },
    insert: {
      sql: `insert into private.oauth_states (state, user_id, provider, code_verifier) values ('s-0123456789abcdef', $owner, 'google', 'v')`,
      expect: all('denied'),
    },
    update: { sql: `update private.oauth_states set used_at = null where user_id = $owner`, expect: all('denied') },
    delete: { sql: `delete from private.oauth_states where user_id = $owner`, expect: all('denied') },
  },
  stripe_events: {
    select: { sql: `select id from private.stripe_events`, expect: all('denied') },
    insert: {
      sql: `insert into private.stripe_events (id, type, created_at) values ('evt_x', 'x', now())`,
      expect: all('denied'),
    },
    update: { sql: `update private.stripe_events set processed_at = now()`, expect: all('denied') },
    delete: { sql: `delete from private.stripe_events`, expect: all('denied') },
  },
  checkout_recoveries: {
    select: { sql: `select checkout_session_id from private.checkout_recoveries`, expect: all('denied') },
    insert: {
      sql: `insert into private.checkout_recoveries (checkout_session_id, user_id) values ('cs_x', $owner)`,
      expect: all('denied'),
    },
    update: { sql: `update private.checkout_recoveries set claimed_at = now()`, expect: all('denied') },
    delete: { sql: `delete from private.checkout_recoveries`, expect: all('denied') },
  },
};

const tables: Record<string, Record<Op, Cell>> = {
  profiles: {
    select: {
      sql: `select id from public.profiles where id = $owner`,
      expect: { anon: 'denied', other: 0, owner: 1, admin: 1 },
    },
    insert: { sql: `insert into public.profiles (id, email) values ($new, 'x@example.com')`, expect: all('denied') },
    update: {
      sql: `update public.profiles set first_name = 'Changed' where id = $owner`,
      expect: { anon: 'denied', other: 0, owner: 1, admin: 0 },
    },
    delete: { sql: `delete from public.profiles where id = $owner`, expect: all('denied') },
  },
  plans: {
    select: { sql: `select id from public.plans where id in ('starter', 'growth', 'scale')`, expect: all(3) },
    insert: { sql: `insert into public.plans (id, title) values ('free', 'Free')`, expect: all('denied') },
    update: { sql: `update public.plans set price_cents = 1 where id = 'growth'`, expect: all('denied') },
    delete: { sql: `delete from public.plans where id = 'growth'`, expect: all('denied') },
  },
  subscriptions: {
    select: {
      sql: `select user_id from public.subscriptions where user_id = $owner`,
      expect: { anon: 'denied', other: 0, owner: 1, admin: 1 },
    },
    insert: {
      sql: `insert into public.subscriptions (user_id, status, tier) values ($new, 'active', 'scale')`,
      expect: all('denied'),
    },
    update: {
      sql: `update public.subscriptions set status = 'active', tier = 'scale' where user_id = $owner`,
      expect: all('denied'),
    },
    delete: { sql: `delete from public.subscriptions where user_id = $owner`, expect: all('denied') },
  },
  oauth_connections: {
    select: {
      sql: `select id from public.oauth_connections where user_id = $owner`,
      expect: { anon: 'denied', other: 0, owner: 1, admin: 0 },
    },
    insert: {
      sql: `insert into public.oauth_connections (user_id, provider) values ($owner, 'x')`,
      expect: all('denied'),
    },
    update: {
      sql: `update public.oauth_connections set has_refresh_token = true where user_id = $owner`,
      expect: all('denied'),
    },
    delete: { sql: `delete from public.oauth_connections where user_id = $owner`, expect: all('denied') },
  },
  episodes: {
    select: {
      sql: `select id from public.episodes where user_id = $owner`,
      expect: { anon: 'denied', other: 0, owner: 1, admin: 1 },
    },
    insert: {
      sql: `insert into public.episodes (user_id, title, files) values ($owner, 't', array['f'])`,
      expect: all('denied'),
    },
    update: { sql: `update public.episodes set title = 'x' where user_id = $owner`, expect: all('denied') },
    delete: { sql: `delete from public.episodes where user_id = $owner`, expect: all('denied') },
  },
  submission_logs: {
    select: {
      sql: `select id from public.submission_logs where user_id = $owner`,
      expect: { anon: 'denied', other: 0, owner: 1, admin: 1 },
    },
    insert: {
      sql: `insert into public.submission_logs (user_id, user_email, object_storage_files) values ($owner, 'e', array['f'])`,
      expect: all('denied'),
    },
    update: {
      sql: `update public.submission_logs set status = 'failed' where user_id = $owner`,
      expect: all('denied'),
    },
    delete: { sql: `delete from public.submission_logs where user_id = $owner`, expect: all('denied') },
  },
  webhook_deliveries: {
    select: {
      sql: `select id from public.webhook_deliveries where submission_log_id = $log`,
      expect: { anon: 'denied', other: 0, owner: 0, admin: 1 },
    },
    insert: {
      sql: `insert into public.webhook_deliveries (submission_log_id, payload) values ($log, '{}')`,
      expect: all('denied'),
    },
    update: {
      sql: `update public.webhook_deliveries set attempts = 0 where submission_log_id = $log`,
      expect: all('denied'),
    },
    delete: { sql: `delete from public.webhook_deliveries where submission_log_id = $log`, expect: all('denied') },
  },
};

// Written by the server only, read by administrators.
tables.admin_audit_log = {
  select: {
    sql: `select id from public.admin_audit_log where target_user_id = $owner`,
    expect: { anon: 'denied', other: 0, owner: 0, admin: 1 },
  },
  insert: {
    sql: `insert into public.admin_audit_log (admin_id, action, target_user_id) values ($new, 'forged', $owner)`,
    expect: all('denied'),
  },
  update: { sql: `update public.admin_audit_log set action = 'changed' where target_user_id = $owner`, expect: all('denied') },
  delete: { sql: `delete from public.admin_audit_log where target_user_id = $owner`, expect: all('denied') },
};

// Written by the worker (a server role), read by
// the owner and administrators. The owner's submission got its processing row by trigger.
tables.episode_processing = {
  select: {
    sql: `select id from public.episode_processing where submission_log_id = $log`,
    expect: { anon: 'denied', other: 0, owner: 1, admin: 1 },
  },
  insert: {
    sql: `insert into public.episode_processing (submission_log_id, user_id) values ($log, $owner)`,
    expect: all('denied'),
  },
  update: { sql: `update public.episode_processing set progress = 50 where submission_log_id = $log`, expect: all('denied') },
  delete: { sql: `delete from public.episode_processing where submission_log_id = $log`, expect: all('denied') },
};
// A clip is the owner's alone (the episode page is theirs): no administrator reads it through RLS.
tables.episode_clips = {
  select: {
    sql: `select id from public.episode_clips where user_id = $owner`,
    expect: { anon: 'denied', other: 0, owner: 1, admin: 0 },
  },
  insert: {
    sql: `insert into public.episode_clips (episode_processing_id, user_id, position, start_seconds, end_seconds, title, posts, file_name)
          select id, $owner, 9, 0, 10, 'Forged', '{}', 'forged.mp4' from public.episode_processing where submission_log_id = $log`,
    expect: all('denied'),
  },
  update: { sql: `update public.episode_clips set title = 'Changed' where user_id = $owner`, expect: all('denied') },
  delete: { sql: `delete from public.episode_clips where user_id = $owner`, expect: all('denied') },
};
// The files of the show's feed: the owner reads which they are; the worker writes them.
tables.podcast_episode_files = {
  select: { sql: `select episode_id from public.podcast_episode_files where user_id = $owner`, expect: { anon: 'denied', other: 0, owner: 0, admin: 0 } },
  insert: {
    sql: `insert into public.podcast_episode_files (episode_id, user_id, episode_processing_id, audio_path, audio_bytes, duration_seconds)
          select episode_id, user_id, id, 'x.m4a', 1, 1 from public.episode_processing where submission_log_id = $log`,
    expect: all('denied'),
  },
  update: { sql: `update public.podcast_episode_files set audio_bytes = 2 where user_id = $owner`, expect: all('denied') },
  delete: { sql: `delete from public.podcast_episode_files where user_id = $owner`, expect: all('denied') },
};
// The words as recognised and corrected: the owner reads them; every change goes through save_transcript().
tables.episode_transcripts = {
  select: { sql: `select episode_processing_id from public.episode_transcripts where user_id = $owner`, expect: { anon: 'denied', other: 0, owner: 0, admin: 0 } },
  insert: {
    sql: `insert into public.episode_transcripts (episode_processing_id, user_id, engine, language, duration_seconds, words, sentences)
          select id, user_id, 'x', 'en', 1, '[]', '[]' from public.episode_processing where submission_log_id = $log`,
    expect: all('denied'),
  },
  update: { sql: `update public.episode_transcripts set version = 9 where user_id = $owner`, expect: all('denied') },
  delete: { sql: `delete from public.episode_transcripts where user_id = $owner`, expect: all('denied') },
};
// The show's feed: the owner reads its key and state (their dashboard); the feed builder writes it.
tables.podcast_feeds = {
  select: { sql: `select feed_key from public.podcast_feeds where user_id = $owner`, expect: { anon: 'denied', other: 0, owner: 1, admin: 0 } },
  insert: { sql: `insert into public.podcast_feeds (user_id) values ($new)`, expect: all('denied') },
  update: { sql: `update public.podcast_feeds set status = 'valid', problems = '{}' where user_id = $owner`, expect: all('denied') },
  delete: { sql: `delete from public.podcast_feeds where user_id = $owner`, expect: all('denied') },
};
// Extra episodes bought on the largest plan: the owner reads their own; only the webhook writes.
tables.extra_episodes = {
  select: { sql: `select month from public.extra_episodes where user_id = $owner`, expect: { anon: 'denied', other: 0, owner: 1, admin: 0 } },
  insert: {
    sql: `insert into public.extra_episodes (user_id, month, stripe_checkout_session_id) values ($owner, date_trunc('month', now())::date, 'cs_' || $new)`,
    expect: all('denied'),
  },
  update: { sql: `update public.extra_episodes set month = date_trunc('month', now())::date where user_id = $owner`, expect: all('denied') },
  delete: { sql: `delete from public.extra_episodes where user_id = $owner`, expect: all('denied') },
};
tables.scheduled_posts = {
  select: {
    sql: `select id from public.scheduled_posts where user_id = $owner`,
    expect: { anon: 'denied', other: 0, owner: 1, admin: 1 },
  },
  insert: {
    sql: `insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_id, scheduled_for)
          select p.id, $owner, 'x', c.id, now() from public.episode_processing p join public.episode_clips c on c.episode_processing_id = p.id
           where p.submission_log_id = $log`,
    expect: all('denied'),
  },
  update: { sql: `update public.scheduled_posts set status = 'posted' where user_id = $owner`, expect: all('denied') },
  delete: { sql: `delete from public.scheduled_posts where user_id = $owner`, expect: all('denied') },
};

beforeAll(async () => {
  await withDb((db) =>
    db.query(
      `with clip as (
         insert into public.episode_clips (episode_processing_id, episode_id, user_id, position, start_seconds, end_seconds, title, posts, file_name, drive_file_id)
         select id, episode_id, user_id, 1, 0, 20, 'Clip 01', '{}', 'clip 01.mp4', 'drive-file' from public.episode_processing where submission_log_id = $1
         returning id, episode_processing_id, user_id)
       insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_id, scheduled_for)
       select episode_processing_id, user_id, 'youtube', id, now() + interval '1 day' from clip`,
      [ownerLogId],
    ),
  );
});

const buckets: Record<string, Record<Op, Cell>> = {
  episodes: {
    select: {
      sql: `select name from storage.objects where bucket_id = 'episodes' and name = $owner || '/uploads/draft.mp4'`,
      expect: { anon: 0, other: 0, owner: 1, admin: 1 },
    },
    insert: {
      sql: `insert into storage.objects (bucket_id, name) values ('episodes', $owner || '/uploads/new.mp4')`,
      expect: { anon: 'denied', other: 'denied', owner: 1, admin: 'denied' },
    },
    update: {
      sql: `update storage.objects set metadata = '{}' where bucket_id = 'episodes' and name = $owner || '/uploads/draft.mp4'`,
      expect: { anon: 0, other: 0, owner: 1, admin: 0 },
    },
    delete: {
      sql: `delete from storage.objects where bucket_id = 'episodes' and name = $owner || '/uploads/draft.mp4'`,
      expect: { anon: 0, other: 0, owner: 1, admin: 0 },
    },
  },
  'brand-assets': {
    select: {
      sql: `select name from storage.objects where bucket_id = 'brand-assets' and name = $owner || '/logo/logo.png'`,
      expect: { anon: 0, other: 0, owner: 1, admin: 1 },
    },
    // Brand assets are written only by the api, after it checked their bytes (issue 23, item 6).
    insert: {
      sql: `insert into storage.objects (bucket_id, name) values ('brand-assets', $owner || '/podcastCover/cover.jpg')`,
      expect: all('denied'),
    },
    update: {
      sql: `update storage.objects set metadata = '{}' where bucket_id = 'brand-assets' and name = $owner || '/logo/logo.png'`,
      expect: all(0),
    },
    delete: {
      sql: `delete from storage.objects where bucket_id = 'brand-assets' and name = $owner || '/logo/logo.png'`,
      expect: { anon: 0, other: 0, owner: 1, admin: 0 },
    },
  },
};

async function outcomeOf(who: Who, cell: Cell): Promise<Expect> {
  const { text, params } = bind(cell.sql);
  const outcome = await inRolledBackTx((db) => runAs(db, actor(who), text, params));
  if (outcome.code) {
    if (outcome.code !== '42501') throw new Error(`unexpected ${outcome.code}: ${outcome.message}`);
    return 'denied';
  }
  return outcome.rowCount ?? 0;
}

function matrix(kind: string, entries: Record<string, Record<Op, Cell>>) {
  for (const [name, ops] of Object.entries(entries)) {
    describe(`${kind} ${name}`, () => {
      for (const op of ['select', 'insert', 'update', 'delete'] as Op[]) {
        for (const who of ['anon', 'other', 'owner', 'admin'] as Who[]) {
          const expected = ops[op].expect[who];
          it(`${op} as ${who}: ${expected === 'denied' ? 'refused (42501)' : `${expected} row(s)`}`, async () => {
            expect(await outcomeOf(who, ops[op])).toBe(expected);
          });
        }
      }
    });
  }
}

matrix('table', tables);
matrix('private table', privateTables);
matrix('bucket', buckets);

it('covers every table in public', async () => {
  const { rows } = await withDb((db) =>
    db.query(`select tablename from pg_tables where schemaname = 'public' order by 1`),
  );
  expect(rows.map((r) => r.tablename).sort()).toEqual(Object.keys(tables).sort());
});

describe('secrets stay secret', () => {
  const crafted = [
    `select count(*) from private.oauth_tokens`,
    `select 1 from private.oauth_tokens where refresh_token_encrypted like 'enc%'`,
    `select * from private.oauth_tokens t join public.oauth_connections c on c.id = t.connection_id where c.user_id = $owner`,
    `select exists (select 1 from private.oauth_states where code_verifier = 'verifier')`,
    `select private.record_stripe_event('evt_forged', 'customer.subscription.updated', now(), $owner, 'cus_forged', 'sub_forged', 'active', 'scale')`,
    `select private.remember_stripe_customer($owner, 'cus_forged')`,
    `select private.claim_checkout_recovery('cs_forged', $owner, now())`,
    `select changed_at from private.account_credential_changes where user_id = $owner`,
    `delete from private.account_credential_changes where user_id = $owner`,
  ];
  for (const sql of crafted) {
    for (const who of ['anon', 'owner', 'admin'] as Who[]) {
      it(`${who}: ${sql}`, async () => {
        const { text, params } = bind(sql);
        const outcome = await inRolledBackTx((db) => runAs(db, actor(who), text, params));
        expect(outcome.code).toBe('42501');
        expect(outcome.message).toMatch(/permission denied/);
      });
    }
  }
});

describe('storage rules beyond the matrix', () => {
  const cases: [string, string, Expect][] = [
    [
      'an episode that is not MP4',
      `insert into storage.objects (bucket_id, name) values ('episodes', $owner || '/uploads/movie.mov')`,
      'denied',
    ],
    [
      'an episode outside the own folder',
      `insert into storage.objects (bucket_id, name) values ('episodes', 'uploads/' || $owner || '.mp4')`,
      'denied',
    ],
    [
      'a brand asset written directly, even in its slot with its type (only the api writes them)',
      `insert into storage.objects (bucket_id, name) values ('brand-assets', $owner || '/clipIntro/intro.mp4')`,
      'denied',
    ],
    [
      'deleting a submitted episode file',
      `delete from storage.objects where bucket_id = 'episodes' and name = $owner || '/uploads/submitted.mp4'`,
      0,
    ],
    [
      'replacing a submitted episode file',
      `update storage.objects set metadata = '{}' where bucket_id = 'episodes' and name = $owner || '/uploads/submitted.mp4'`,
      0,
    ],
  ];
  for (const [label, sql, expected] of cases) {
    it(`owner: ${label} -> ${expected}`, async () => {
      expect(await outcomeOf('owner', { sql, expect: all(expected) })).toBe(expected);
    });
  }

  it('buckets are private with the documented limits', async () => {
    const { rows } = await withDb((db) =>
      db.query(
        `select id, public, file_size_limit, allowed_mime_types from storage.buckets where id in ('episodes', 'brand-assets') order by id`,
      ),
    );
    expect(rows).toEqual([
      {
        id: 'brand-assets',
        public: false,
        // 200 MiB: the largest brand asset, an intro or outro video.
        file_size_limit: '209715200',
        allowed_mime_types: ['image/png', 'image/jpeg', 'video/mp4'],
      },
      { id: 'episodes', public: false, file_size_limit: '3221225472', allowed_mime_types: ['video/mp4'] },
    ]);
  });
});

/** The SQLSTATE and message of a statement run as the storage service (no RLS), or null. */
async function asStorageService(db: pg.Client, sql: string, params: unknown[]): Promise<{ code?: string; message?: string } | null> {
  await db.query('savepoint service');
  try {
    await db.query(sql, params);
    await db.query('release savepoint service');
    return null;
  } catch (error) {
    await db.query('rollback to savepoint service');
    const { code, message } = error as { code?: string; message?: string };
    return { code, message };
  }
}

const insertSized = `insert into storage.objects (bucket_id, name, owner_id, metadata)
  values ($1, $2, split_part($2, '/', 1), jsonb_build_object('mimetype', 'video/mp4', 'size', $3::bigint))`;
const GiB = 1024 ** 3;

// Rules that hold for every writer, the storage service included: hosted Storage writes each
// upload's final row, and every signed upload, without RLS (issue 23, items 10 and 11).
describe('storage for subscribers only, within quota, submitted files locked', () => {
  it('refuses uploads to an account without an active subscription, through RLS and without it', async () => {
    await inRolledBackTx(async (db) => {
      const neverPaid = await createUser(db);
      const cancelled = await createUser(db);
      await subscribe(db, cancelled.id, 'growth', 'canceled');
      for (const user of [neverPaid, cancelled]) {
        const viaApi = await runAs(db, { id: user.id }, `insert into storage.objects (bucket_id, name) values ('episodes', $1)`, [`${user.id}/u/a.mp4`]);
        expect(viaApi).toMatchObject({ code: '42501', message: 'An active subscription is required to upload files.' });
        const signed = await asStorageService(db, insertSized, ['episodes', `${user.id}/u/b.mp4`, 1024]);
        expect(signed).toMatchObject({ code: '42501', message: 'An active subscription is required to upload files.' });
        const brand = await asStorageService(db, insertSized, ['brand-assets', `${user.id}/videoIntro/x.mp4`, 1024]);
        expect(brand?.code).toBe('42501');
      }
    });
  });

  it("keeps each subscriber within their plan's quota, counting both buckets and declared sizes", async () => {
    await inRolledBackTx(async (db) => {
      const { rows } = await db.query(`select storage_quota_bytes::bigint as quota from public.plans where id = 'starter'`);
      const quota = Number(rows[0].quota);
      expect(quota).toBe(50 * GiB);
      const user = await createReadySubscriber(db, 'starter');
      expect(await asStorageService(db, insertSized, ['episodes', `${user.id}/u/1.mp4`, quota - 2 * GiB])).toBeNull();
      expect(await asStorageService(db, insertSized, ['brand-assets', `${user.id}/videoIntro/i.mp4`, GiB])).toBeNull();
      const over = await asStorageService(db, insertSized, ['episodes', `${user.id}/u/2.mp4`, 2 * GiB]);
      expect(over?.code).toBe('42501');
      expect(over?.message).toMatch(/^Storage quota reached: your plan keeps up to 53\.7 GB/);
      // Storage's test insert before the bytes: the declared length counts.
      const declared = await runAs(
        db,
        { id: user.id },
        `insert into storage.objects (bucket_id, name, metadata) values ('episodes', $1, jsonb_build_object('contentLength', $2::bigint))`,
        [`${user.id}/u/3.mp4`, 2 * GiB],
      );
      expect(declared.code).toBe('42501');
      // Replacing a file counts its new size, not both.
      const replaced = await asStorageService(
        db,
        `update storage.objects set metadata = jsonb_build_object('size', $2::bigint), version = 'v2' where bucket_id = 'episodes' and name = $1`,
        [`${user.id}/u/1.mp4`, quota - GiB],
      );
      expect(replaced).toBeNull();
      expect(await asStorageService(db, insertSized, ['episodes', `${user.id}/u/4.mp4`, 1])).toMatchObject({ code: '42501' });
      // Removing a file frees its bytes.
      await db.query(`delete from storage.objects where bucket_id = 'brand-assets' and name = $1`, [`${user.id}/videoIntro/i.mp4`]);
      expect(await asStorageService(db, insertSized, ['episodes', `${user.id}/u/4.mp4`, GiB])).toBeNull();
      // Another subscriber's usage is theirs.
      expect(await asStorageService(db, insertSized, ['episodes', `${other.id}/u/fits.mp4`, GiB])).toBeNull();
    });
  });

  it('never replaces, moves or renames a submitted episode file, whoever asks', async () => {
    await inRolledBackTx(async (db) => {
      const overwrite = await asStorageService(
        db,
        `insert into storage.objects (bucket_id, name, owner_id, version, metadata) values ('episodes', $1, split_part($1, '/', 1), 'evil', '{"size": 10}')
         on conflict (bucket_id, name) do update set version = excluded.version, metadata = excluded.metadata`,
        [ownerSubmittedVideo()],
      );
      expect(overwrite).toMatchObject({ code: '42501', message: 'This file was submitted for processing and can no longer be replaced.' });
      const moved = await asStorageService(db, `update storage.objects set name = $2 where bucket_id = 'episodes' and name = $1`, [
        ownerSubmittedVideo(),
        `${owner.id}/uploads/elsewhere.mp4`,
      ]);
      expect(moved?.code).toBe('42501');
      const draft = await asStorageService(db, `update storage.objects set version = 'v2' where bucket_id = 'episodes' and name = $1`, [
        `${owner.id}/uploads/draft.mp4`,
      ]);
      expect(draft).toBeNull();
    });
  });

  it('lists unsubmitted uploads past the retention for the cleanup, never a submitted file', async () => {
    await inRolledBackTx(async (db) => {
      await db.query(`update storage.objects set created_at = now() - interval '4 days' where bucket_id = 'episodes' and name like $1 || '/%'`, [owner.id]);
      const { rows } = await db.query(
        `select name from private.stale_episode_uploads(interval '72 hours', 1000) as name where name like $1 || '/%'`,
        [owner.id],
      );
      expect(rows.map((row) => row.name)).toEqual([`${owner.id}/uploads/draft.mp4`]);
      const fresh = await db.query(`select name from private.stale_episode_uploads(interval '5 days', 1000) as name where name like $1 || '/%'`, [owner.id]);
      expect(fresh.rows).toEqual([]);
    });
  });
});

describe('columns a subscriber must never change', () => {
  const guarded = [
    `onboarding_completed_at = now()`,
    `hosting_ready_at = now()`,
    `is_internal_test_account = true`,
    `email = 'someone@else.com'`,
    `id = gen_random_uuid()`,
    `created_at = now()`,
    // Brand-asset paths: only the api sets them, to files whose bytes it checked (issue 23, item 6).
    ...['logo_path', 'podcast_cover_path', 'video_intro_path', 'video_outro_path', 'clip_intro_path', 'clip_outro_path'].map(
      (column) => `${column} = null`,
    ),
  ];
  for (const assignment of guarded) {
    it(`owner cannot set profiles.${assignment.split(' ')[0]}`, async () => {
      const outcome = await inRolledBackTx((db) =>
        runAs(db, actor('owner'), `update public.profiles set ${assignment} where id = $1`, [owner.id]),
      );
      expect(outcome.code).toBe('42501');
    });
  }

  it('owner may edit their own profile fields, within the checks', async () => {
    await inRolledBackTx(async (db) => {
      const ok = await runAs(
        db,
        actor('owner'),
        `update public.profiles set brand_color_primary = 'FF00AA', podcast_language = 'de', post_automatically = false where id = $1`,
        [owner.id],
      );
      expect(ok.rowCount).toBe(1);
      const badColour = await runAs(
        db,
        actor('owner'),
        `update public.profiles set brand_color_primary = '#FF00AA' where id = $1`,
        [owner.id],
      );
      expect(badColour.code).toBe('23514');
    });
  });

  it('a brand-asset path stays in the owner\'s folder and the slot\'s type, even written by the service', async () => {
    for (const path of [`${other.id}/logo/logo.png`, `${owner.id}/logo/logo.jpg`]) {
      const code = await inRolledBackTx((db) =>
        db.query(`update public.profiles set logo_path = $2 where id = $1`, [owner.id, path]).then(
          () => null,
          (error: { code?: string }) => error.code,
        ),
      );
      expect(code).toBe('23514');
    }
  });

  it('a subscriber cannot write their subscription or connections, even their own', async () => {
    await inRolledBackTx(async (db) => {
      expect(
        (
          await runAs(db, actor('owner'), `update public.subscriptions set tier = 'scale' where user_id = $1`, [
            owner.id,
          ])
        ).code,
      ).toBe('42501');
      expect(
        (
          await runAs(db, actor('owner'), `update public.oauth_connections set expires_at = null where user_id = $1`, [
            owner.id,
          ])
        ).code,
      ).toBe('42501');
    });
  });
});

describe('profiles from sign-up', () => {
  it('creates a profile with the sign-up names and e-mail, and follows e-mail changes', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db, { firstName: 'Ada', lastName: 'Lovelace' });
      const { rows } = await db.query(
        `select email, first_name, last_name, post_automatically, onboarding_completed_at from public.profiles where id = $1`,
        [user.id],
      );
      expect(rows[0]).toEqual({
        email: user.email,
        first_name: 'Ada',
        last_name: 'Lovelace',
        post_automatically: true,
        onboarding_completed_at: null,
      });
      await db.query(`select private.change_user_email($1, 'new-address@example.com')`, [user.id]);
      const after = await db.query(`select email from public.profiles where id = $1`, [user.id]);
      expect(after.rows[0].email).toBe('new-address@example.com');
    });
  });
});

describe('through PostgREST', () => {
  const rest = async (path: string, who: Who, init: RequestInit = {}) => {
    const headers: Record<string, string> = { apikey: config.anonKey, 'content-type': 'application/json' };
    if (who !== 'anon') headers.authorization = `Bearer ${await jwtFor(actor(who))}`;
    return fetch(`${config.urls.api}/rest/v1/${path}`, {
      ...init,
      headers: { ...headers, ...(init.headers as Record<string, string>) },
    });
  };

  it('anon reads the plans but not profiles', async () => {
    const plans = await rest('plans?select=id&listed=is.true&order=sort_order', 'anon');
    expect(await plans.json()).toEqual([{ id: 'starter' }, { id: 'growth' }, { id: 'scale' }]);
    const profiles = await rest('profiles?select=id', 'anon');
    expect(profiles.status).toBe(401);
    expect((await profiles.json()).code).toBe('42501');
  });

  it('a subscriber sees only their own profile; an admin sees all', async () => {
    const own = await rest('profiles?select=id', 'owner');
    expect(await own.json()).toEqual([{ id: owner.id }]);
    const asAdmin = await rest(`profiles?select=id&id=in.(${owner.id},${other.id})`, 'admin');
    expect((await asAdmin.json()).length).toBe(2);
  });

  it('token material and OAuth states are not served at all, even filtered to the own rows', async () => {
    for (const path of [`oauth_tokens?select=access_token_encrypted&user_id=eq.${owner.id}`, 'oauth_states?select=code_verifier']) {
      const res = await rest(path, 'owner');
      expect(res.status).toBe(404);
      // Nor by naming their schema: PostgREST serves only the exposed one.
      const named = await rest(path, 'owner', { headers: { 'accept-profile': 'private' } });
      expect(named.status).toBe(406);
    }
  });

  it('billing records and the service-only billing functions are not served at all', async () => {
    for (const path of ['stripe_events?select=id', `checkout_recoveries?select=checkout_session_id&user_id=eq.${owner.id}`]) {
      expect((await rest(path, 'owner')).status).toBe(404);
      expect((await rest(path, 'owner', { headers: { 'accept-profile': 'private' } })).status).toBe(406);
    }
    for (const fn of ['record_stripe_event', 'remember_stripe_customer', 'claim_checkout_recovery']) {
      const res = await rest(`rpc/${fn}`, 'owner', { method: 'POST', body: '{}' });
      expect(res.status).toBe(404);
    }
  });

  it('the outbox functions are not served at all, not even to the service role', async () => {
    const headers = { apikey: config.serviceRoleKey, authorization: `Bearer ${config.serviceRoleKey}`, 'content-type': 'application/json' };
    for (const fn of ['claim_webhook_deliveries', 'record_webhook_attempt', 'webhook_delivery_context']) {
      const res = await fetch(`${config.urls.api}/rest/v1/rpc/${fn}`, { method: 'POST', headers, body: '{}' });
      expect(res.status).toBe(404);
    }
  });

  it('a subscriber cannot insert an episode directly', async () => {
    const res = await rest('episodes', 'owner', {
      method: 'POST',
      body: JSON.stringify({ user_id: owner.id, title: 'x', files: ['x'] }),
    });
    expect(res.status).toBe(403);
  });

  it('serves current_account and episode_stats as RPCs', async () => {
    const account = await rest('rpc/current_account', 'owner', { method: 'POST', body: '{}' });
    expect(await account.json()).toMatchObject({
      id: owner.id,
      email: owner.email,
      subscriptionStatus: 'active',
      subscriptionTier: 'growth',
      onboardingCompleted: false,
    });
    const stats = await rest('rpc/episode_stats', 'owner', { method: 'POST', body: '{}' });
    // Not thisMonth: the worker may already have failed the made-up upload, which frees its slot.
    expect(await stats.json()).toMatchObject({
      total: 0,
      limit: 2,
      subscriptionTier: 'growth',
      canSubmit: true,
      blockReason: null,
    });
    const anonStats = await rest('rpc/episode_stats', 'anon', { method: 'POST', body: '{}' });
    expect(anonStats.status).toBe(401);
  });

  it('submit_episode refusals arrive with their reason', async () => {
    await withDb(async (db) => {
      await connectGoogle(db, other.id, { refreshToken: false });
      await markEpisodeFileChecked(db, `${other.id}/uploads/draft.mp4`);
    });
    const res = await rest('rpc/submit_episode', 'other', {
      method: 'POST',
      body: JSON.stringify({ files: [`${other.id}/uploads/draft.mp4`], options: {} }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'PT403', message: 'google_drive_invalid' });
  });
});
