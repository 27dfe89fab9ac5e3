// /api/admin/*: each path as anon, subscriber and administrator; resubmission through the
// outbox with an audit record; refusals that write nothing; paging of 10,000 files.
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { config, withDb } from '../support/stack.ts';
import { createSubmissionLog, signIn, uploadEpisodeFile } from '../support/submissions.ts';
import { createUser, type TestUser } from '../support/users.ts';
import { setActiveAutomation, useAutomation } from '../support/episodes.ts';

const api = (path: string) => `${config.urls.api}/functions/v1/api/${path}`;

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(api(path), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

// Resubmissions go through the outbox to the webhook.
useAutomation('webhook');

let admin: TestUser;
let subscriber: TestUser;
let adminToken: string;
let subscriberToken: string;
let file: string;
let originalLogId: string;

beforeAll(async () => {
  [admin, subscriber] = await Promise.all([createUser('admin'), createUser('onboarded')]);
  [adminToken, subscriberToken] = (await Promise.all([signIn(admin), signIn(subscriber)])).map((s) => s.token);
  file = await uploadEpisodeFile(subscriber, 'episode-1.mp4');
  originalLogId = await createSubmissionLog(subscriber, [file], {
    parameters: {
      clipStyle: 'DEFAULT',
      daysBetweenClips: 2,
      addLogo: false,
      addIntroOutro: true,
      startTimestamp: null,
      endTimestamp: null,
    },
  });
});

async function writesFor(email: string) {
  return withDb(async (db) => {
    const { rows } = await db.query(
      `select (select count(*)::int from public.submission_logs where user_email = $1) as logs,
              (select count(*)::int from public.webhook_deliveries d join public.submission_logs l on l.id = d.submission_log_id where l.user_email = $1) as deliveries,
              (select count(*)::int from public.admin_audit_log where details ->> 'userEmail' = $1) as audits`,
      [email],
    );
    return rows[0];
  });
}

/** How many rows of storage.objects Postgres read for `sql`, run as the holder of `token` the way PostgREST runs it. */
async function objectRowsReadBy(token: string, sql: string, params: unknown[]): Promise<number> {
  return withDb(async (db) => {
    await db.query('begin');
    try {
      await db.query('set local role authenticated');
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(decodeJwt(token))]);
      await db.query(sql, params);
      await db.query('reset role');
      const { rows } = await db.query(
        `select (pg_stat_get_xact_tuples_returned(c.oid) + pg_stat_get_xact_tuples_fetched(c.oid))::int as n
           from pg_class c where c.oid = 'storage.objects'::regclass`,
      );
      return rows[0].n as number;
    } finally {
      await db.query('rollback');
    }
  });
}

describe('who may call /api/admin/*', () => {
  const paths: Array<[string, string]> = [
    ['GET', 'admin/episode-logs'],
    ['GET', 'admin/object-storage/files'],
    ['POST', 'admin/episodes/resubmit'],
  ];
  for (const [method, path] of paths) {
    it(`${method} /api/${path}: 401 signed out, 403 for a subscriber`, async () => {
      const body =
        method === 'POST'
          ? { objectStorageFiles: [file], userEmail: subscriber.email, episodeData: {}, originalLogId }
          : undefined;
      expect(await call(method, path, undefined, body)).toEqual({ status: 401, body: { message: 'Unauthorized' } });
      expect(await call(method, path, subscriberToken, body)).toEqual({
        status: 403,
        body: {
          message:
            method === 'POST'
              ? 'Only administrators can resubmit episodes.'
              : 'Only administrators can use the admin panel.',
        },
      });
    });
  }
  it('wrote nothing for the refused resubmissions', async () => {
    expect(await writesFor(subscriber.email)).toEqual({ logs: 1, deliveries: 1, audits: 0 });
  });
});

describe('GET /api/admin/episode-logs as an administrator', () => {
  it('lists logs newest first with their delivery state', async () => {
    const res = await call('GET', 'admin/episode-logs', adminToken);
    expect(res.status).toBe(200);
    const log = res.body.items.find((l: { id: string }) => l.id === originalLogId);
    expect(log).toMatchObject({
      userEmail: subscriber.email,
      status: 'submitted',
      objectStorageFiles: [file],
      submissionParameters: { daysBetweenClips: 2, addLogo: false },
      originalLogId: null,
      delivery: { state: 'pending', attempts: 0, lastError: null },
      processing: null,
    });
    const times = res.body.items.map((l: { submittedAt: string }) => Date.parse(l.submittedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("shows the built-in worker's processing, and a delivery skipped because the worker took the submission", async () => {
    await setActiveAutomation('builtin');
    let builtinLogId: string;
    try {
      builtinLogId = await createSubmissionLog(subscriber, [file]);
    } finally {
      await setActiveAutomation('webhook');
    }
    // The stack's worker takes the submission at once and fails it (this subscriber has no Drive);
    // the failure this test sets comes after the worker's, so the worker cannot overwrite it.
    await expect
      .poll(async () => (await withDb((db) => db.query(`select status from public.episode_processing where submission_log_id = $1`, [builtinLogId]))).rows[0]?.status, { timeout: 30_000 })
      .toBe('failed');
    await withDb((db) =>
      db.query(
        `update public.episode_processing set status = 'failed', stage = null, failure_reason = 'Google Drive refused the upload.', finished_at = now()
          where submission_log_id = $1`,
        [builtinLogId],
      ),
    );
    const res = await call('GET', 'admin/episode-logs', adminToken);
    const log = res.body.items.find((l: { id: string }) => l.id === builtinLogId);
    expect(log).toMatchObject({
      delivery: { state: 'skipped', attempts: 0 },
      processing: { status: 'failed', failureReason: 'Google Drive refused the upload.', progress: expect.any(Number), stage: null },
    });
  });

  it('pages with the cursor it answers, and refuses a malformed one', async () => {
    await createSubmissionLog(subscriber, [file], { submittedAt: new Date(Date.now() - 60_000) });
    const first = await call('GET', 'admin/episode-logs?limit=1', adminToken);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call(
      'GET',
      `admin/episode-logs?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      adminToken,
    );
    expect(second.status).toBe(200);
    expect(second.body.items[0]?.id).not.toBe(first.body.items[0].id);
    expect(await call('GET', 'admin/episode-logs?cursor=yesterday', adminToken)).toEqual({
      status: 400,
      body: { message: 'Invalid cursor' },
    });
    expect((await call('GET', 'admin/episode-logs?limit=0', adminToken)).status).toBe(400);
  });
});

describe('GET /api/admin/object-storage/files as an administrator', () => {
  it('lists the files of bucket episodes with path, name, size and upload time', async () => {
    const res = await call(
      'GET',
      `admin/object-storage/files?cursor=${encodeURIComponent(`${subscriber.id}/`)}`,
      adminToken,
    );
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toEqual({
      path: file,
      name: 'episode-1.mp4',
      size: 2 * 1024 * 1024 + 5243,
      uploaded: expect.any(String),
    });
  });

  it('answers the first page of 10,000 files fast, and the next page from its cursor', async () => {
    // Files live in their owner's folder, and only a subscriber's (the storage rules' trigger).
    const prefix = (await createUser('subscribed', { tier: 'scale' })).id;
    await withDb((db) =>
      db.query(
        `insert into storage.objects (bucket_id, name, owner_id, metadata)
         select 'episodes', $1 || '/uploads/file-' || lpad(n::text, 5, '0') || '.mp4', $1, jsonb_build_object('size', n * 1000, 'mimetype', 'video/mp4')
           from generate_series(1, 10000) n`,
        [prefix],
      ),
    );
    // Statistics as autovacuum leaves them after a bulk load, so the plan does not depend on when it ran.
    await withDb((db) => db.query('analyze storage.objects'));
    try {
      const first = await call(
        'GET',
        `admin/object-storage/files?cursor=${encodeURIComponent(`${prefix}/`)}`,
        adminToken,
      );
      expect(first.status).toBe(200);
      expect(first.body.items).toHaveLength(100);
      expect(first.body.items[0].path).toBe(`${prefix}/uploads/file-00001.mp4`);
      // Fast because it reads one page of rows, not the 10,000: counted by Postgres, not timed.
      expect(await objectRowsReadBy(adminToken, 'select public.admin_episode_files($1)', [`${prefix}/`])).toBeLessThan(1000);
      const second = await call(
        'GET',
        `admin/object-storage/files?limit=500&cursor=${encodeURIComponent(first.body.nextCursor)}`,
        adminToken,
      );
      expect(second.body.items).toHaveLength(500);
      expect(second.body.items[0].path).toBe(`${prefix}/uploads/file-00101.mp4`);
    } finally {
      await withDb((db) =>
        db.query(`delete from storage.objects where bucket_id = 'episodes' and name like $1`, [`${prefix}/%`]),
      );
    }
  });
});

describe('POST /api/admin/episodes/resubmit as an administrator', () => {
  it('writes a resubmitted log with the original log id, a pending outbox row and an audit record', async () => {
    const res = await call('POST', 'admin/episodes/resubmit', adminToken, {
      objectStorageFiles: [file],
      userEmail: subscriber.email,
      episodeData: {
        clipStyle: 'LANDSCAPE',
        daysBetweenClips: 4,
        addLogo: false,
        startTimestamp: '00:01:00',
        endTimestamp: null,
      },
      originalLogId,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: 'Episode successfully resubmitted to an automation webhook',
      automation: 'webhook',
      log: { id: expect.any(String), status: 'resubmitted' },
    });
    const stored = await withDb(async (db) => {
      const log = (await db.query(`select * from public.submission_logs where id = $1`, [res.body.log.id])).rows[0];
      const delivery = (
        await db.query(`select * from public.webhook_deliveries where submission_log_id = $1`, [res.body.log.id])
      ).rows;
      const audit = (
        await db.query(
          `select admin_id, action, target_user_id from public.admin_audit_log where details ->> 'submissionLogId' = $1`,
          [res.body.log.id],
        )
      ).rows;
      return { log, delivery, audit };
    });
    expect(stored.log).toMatchObject({
      status: 'resubmitted',
      original_log_id: originalLogId,
      user_id: subscriber.id,
      submitted_by: admin.id,
      object_storage_files: [file],
      submission_parameters: {
        clipStyle: 'LANDSCAPE',
        daysBetweenClips: 4,
        addLogo: false,
        addIntroOutro: true,
        startTimestamp: '00:01:00',
        endTimestamp: null,
      },
    });
    expect(stored.delivery).toHaveLength(1);
    expect(stored.delivery[0]).toMatchObject({ delivered_at: null, failed_at: null, attempts: 0 });
    expect(stored.delivery[0].payload).toMatchObject({
      event: 'episode.resubmitted',
      originalLogId,
      objectStorageFiles: [file],
      userEmail: subscriber.email,
    });
    expect(stored.audit).toEqual([{ admin_id: admin.id, action: 'episode.resubmit', target_user_id: subscriber.id }]);

    const logs = await call('GET', 'admin/episode-logs', adminToken);
    expect(logs.body.items[0]).toMatchObject({
      id: res.body.log.id,
      status: 'resubmitted',
      originalLogId,
      delivery: { state: 'pending' },
    });
  });

  it('says so when the built-in worker takes the resubmission, not the webhook', async () => {
    await setActiveAutomation('builtin');
    let res: Awaited<ReturnType<typeof call>>;
    try {
      res = await call('POST', 'admin/episodes/resubmit', adminToken, { objectStorageFiles: [file], userEmail: subscriber.email });
    } finally {
      await setActiveAutomation('webhook');
    }
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: "Episode successfully resubmitted to Castloop's built-in processing",
      automation: 'builtin',
      log: { id: expect.any(String), status: 'resubmitted' },
    });
    const logs = await call('GET', 'admin/episode-logs', adminToken);
    expect(logs.body.items.find((log: { id: string }) => log.id === res.body.log.id)).toMatchObject({ delivery: { state: 'skipped' } });
  });

  const missingFile = '00000000-0000-4000-8000-000000000001/uploads/missing.mp4';
  const refusals: Array<[string, () => Record<string, unknown>, number, string]> = [
    [
      'an unknown original log',
      () => ({ objectStorageFiles: [file], originalLogId: '00000000-0000-4000-8000-000000000000' }),
      404,
      'The original submission log does not exist.',
    ],
    [
      'a file that does not exist',
      () => ({ objectStorageFiles: [file, `${missingFile}`] }),
      404,
      `File ${missingFile} was not found in storage.`,
    ],
    ['no files', () => ({ objectStorageFiles: [] }), 400, 'Please select at least one file to resubmit.'],
    ['a blank e-mail', () => ({ userEmail: '  ' }), 400, "Please enter the user's email address."],
    ['a malformed log id', () => ({ originalLogId: 'log-1' }), 400, 'originalLogId must be a submission log id'],
    [
      'a clip style outside the admin set',
      () => ({ episodeData: { clipStyle: 'SQUARE' } }),
      400,
      'Clip style must be one of DEFAULT, PROFESSIONAL, CREATIVE, PORTRAIT, LANDSCAPE.',
    ],
    [
      'days between clips below 1',
      () => ({ episodeData: { daysBetweenClips: 0 } }),
      400,
      'Days between clips must be a whole number from 1 to 365.',
    ],
  ];
  for (const [what, change, status, message] of refusals) {
    it(`refuses ${what} with ${status} JSON and writes nothing`, async () => {
      const before = await writesFor(subscriber.email);
      const body = {
        objectStorageFiles: [file],
        userEmail: subscriber.email,
        episodeData: {},
        originalLogId,
        ...change(),
      };
      expect(await call('POST', 'admin/episodes/resubmit', adminToken, body)).toEqual({ status, body: { message } });
      expect(await writesFor(subscriber.email)).toEqual(before);
    });
  }

  it("refuses another subscriber's e-mail for this subscriber's file with 400 JSON and writes nothing", async () => {
    const other = await createUser('onboarded');
    const before = { subscriber: await writesFor(subscriber.email), other: await writesFor(other.email) };
    expect(
      await call('POST', 'admin/episodes/resubmit', adminToken, {
        objectStorageFiles: [file],
        userEmail: other.email,
        episodeData: {},
      }),
    ).toEqual({ status: 400, body: { message: `File ${file} does not belong to ${other.email}.` } });
    expect(
      await call('POST', 'admin/episodes/resubmit', adminToken, {
        objectStorageFiles: [file],
        userEmail: 'no-such-subscriber@example.com',
        episodeData: {},
      }),
    ).toEqual({ status: 404, body: { message: 'No account uses no-such-subscriber@example.com.' } });
    expect({ subscriber: await writesFor(subscriber.email), other: await writesFor(other.email) }).toEqual(before);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const res = await fetch(api('admin/episodes/resubmit'), {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      body: '{',
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { message: 'Request body must be valid JSON' },
    });
  });
});

describe('operator tools over PostgREST', () => {
  async function rpc(name: string, token: string, args: Record<string, unknown>) {
    const res = await fetch(`${config.urls.api}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return { status: res.status, body: await res.json() };
  }

  it('answers 403 to a subscriber, 404 for an unknown e-mail, and the summary to an administrator', async () => {
    expect((await rpc('admin_find_subscriber', subscriberToken, { p_email: subscriber.email })).status).toBe(403);
    const unknown = await rpc('admin_find_subscriber', adminToken, { p_email: 'nobody@example.com' });
    expect(unknown).toMatchObject({
      status: 404,
      body: { message: 'subscriber_not_found', details: 'No account uses nobody@example.com.' },
    });
    const ready = await rpc('admin_mark_hosting_ready', adminToken, { p_email: subscriber.email });
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      id: subscriber.id,
      subscriptionStatus: 'active',
      hostingReadyAt: expect.any(String),
    });
    expect((await rpc('admin_set_admin_role', adminToken, { p_email: admin.email, p_admin: false })).status).toBe(400);
  });
});

// An access token keeps app_metadata.role = 'admin' until it expires; the rights must not.
describe('revoking an administrator, and signing out, take effect at once', () => {
  async function rpc(name: string, token: string, args: Record<string, unknown>) {
    const res = await fetch(`${config.urls.api}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return { status: res.status, body: await res.json() };
  }

  it('a revoked administrator is refused with the old token by PostgREST and /api/admin/*', async () => {
    const revoked = await createUser('admin');
    const { token: oldToken } = await signIn(revoked);
    expect((await call('GET', 'admin/episode-logs?limit=1', oldToken)).status).toBe(200);

    expect((await rpc('admin_set_admin_role', adminToken, { p_email: revoked.email, p_admin: false })).status).toBe(200);

    expect(await rpc('admin_set_admin_role', oldToken, { p_email: revoked.email, p_admin: true })).toMatchObject({
      status: 403,
      body: { message: 'admin_required' },
    });
    expect((await rpc('admin_find_subscriber', oldToken, { p_email: subscriber.email })).status).toBe(403);
    expect(await call('GET', 'admin/episode-logs?limit=1', oldToken)).toEqual({
      status: 403,
      body: { message: 'Only administrators can use the admin panel.' },
    });
    expect((await call('GET', 'admin/object-storage/files?limit=1', oldToken)).status).toBe(403);
    const role = await withDb((db) =>
      db.query(`select raw_app_meta_data ->> 'role' as role from auth.users where id = $1`, [revoked.id]),
    );
    expect(role.rows[0].role).toBeNull();
  });

  it('after POST /api/auth/logout the token no longer reads the console or finds subscribers', async () => {
    const signedOut = await createUser('admin');
    const { token } = await signIn(signedOut);
    expect((await rpc('admin_find_subscriber', token, { p_email: subscriber.email })).status).toBe(200);

    const logout = await fetch(api('auth/logout'), { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(logout.status).toBe(200);

    expect((await rpc('admin_find_subscriber', token, { p_email: subscriber.email })).status).toBe(403);
    for (const path of ['admin/episode-logs?limit=1', 'admin/object-storage/files?limit=1']) {
      expect([401, 403]).toContain((await call('GET', path, token)).status);
    }
    // Nor, through the admin read policies, another account's rows and files.
    const headers = { apikey: config.anonKey, authorization: `Bearer ${token}` };
    const profiles = await fetch(`${config.urls.api}/rest/v1/profiles?select=id&id=eq.${subscriber.id}`, { headers });
    expect(await profiles.json()).toEqual([]);
    const download = await fetch(`${config.urls.api}/storage/v1/object/authenticated/episodes/${file}`, { headers });
    expect(download.status).toBeGreaterThanOrEqual(400);
  });
});
