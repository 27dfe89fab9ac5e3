// episode_stats() gating and limits, and submit_episode(): every refusal writes nothing.
import { describe, expect, it } from 'vitest';
import {
  addCheckedEpisodeFile,
  addEpisode,
  addObject,
  connectGoogle,
  countRows,
  createReadySubscriber,
  createUser,
  inRolledBackTx,
  markEpisodeFileChecked,
  queryAs,
  runAs,
  setHostingReady,
  setProcessing,
  subscribe,
  withDb,
} from './db-support.ts';
import type pg from 'pg';

async function stats(db: pg.Client, id: string): Promise<Record<string, unknown>> {
  const rows = await queryAs<{ stats: Record<string, unknown> }>(db, { id }, 'select public.episode_stats() as stats');
  return rows[0].stats;
}

async function statsAt(db: pg.Client, id: string, at: string): Promise<Record<string, unknown>> {
  const rows = await queryAs<{ stats: Record<string, unknown> }>(
    db,
    { id },
    'select private.episode_stats_for($1, $2) as stats',
    [id, at],
  );
  return rows[0].stats;
}

const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();

describe('episode_stats()', () => {
  it('defaults to limit 1 and tier starter without a subscription, and cannot submit', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      expect(await stats(db, user.id)).toEqual({
        thisMonth: 0,
        total: 0,
        currentCount: 0,
        limit: 1,
        subscriptionTier: 'starter',
        canSubmit: false,
        blockReason: 'google_drive_required',
        hostingSetup: false,
        extraEpisodes: 0,
      });
    });
  });

  it('allows a ready subscriber', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'growth');
      expect(await stats(db, user.id)).toEqual({
        thisMonth: 0,
        total: 0,
        currentCount: 0,
        limit: 2,
        subscriptionTier: 'growth',
        canSubmit: true,
        blockReason: null,
        hostingSetup: true,
        extraEpisodes: 0,
      });
    });
  });

  const reasons: [string, (db: pg.Client, id: string) => Promise<unknown>, string][] = [
    [
      'no Google connection',
      (db, id) => db.query(`delete from public.oauth_connections where user_id = $1`, [id]),
      'google_drive_required',
    ],
    [
      'a disconnected Google connection',
      (db, id) => connectGoogle(db, id, { connected: false }),
      'google_drive_required',
    ],
    [
      'a Google connection without access token',
      (db, id) => connectGoogle(db, id, { accessToken: false }),
      'google_drive_required',
    ],
    [
      'a Google connection without refresh token',
      (db, id) => connectGoogle(db, id, { refreshToken: false }),
      'google_drive_invalid',
    ],
    ['an expired Google token', (db, id) => connectGoogle(db, id, { expiresAt: hourAgo() }), 'google_drive_invalid'],
    [
      'a Google connection made over 30 days ago and not refreshed in the last 10 minutes',
      async (db, id) => {
        const connectionId = await connectGoogle(db, id);
        // The trigger would stamp updated_at with now(); this test needs an older one.
        await db.query(`alter table public.oauth_connections disable trigger oauth_connections_set_updated_at`);
        await db.query(
          `update public.oauth_connections set created_at = now() - interval '31 days', updated_at = now() - interval '11 minutes' where id = $1`,
          [connectionId],
        );
        await db.query(`alter table public.oauth_connections enable trigger oauth_connections_set_updated_at`);
      },
      'google_drive_invalid',
    ],
    ['hosting not ready', (db, id) => setHostingReady(db, id, false), 'hosting_setup'],
    [
      'the monthly limit reached',
      async (db, id) => {
        await addEpisode(db, id);
        await addEpisode(db, id);
      },
      'monthly_limit',
    ],
  ];
  for (const [label, arrange, reason] of reasons) {
    it(`blocks with ${reason} for ${label}`, async () => {
      await inRolledBackTx(async (db) => {
        const user = await createReadySubscriber(db, 'growth');
        await arrange(db, user.id);
        expect(await stats(db, user.id)).toMatchObject({ canSubmit: false, blockReason: reason });
      });
    });
  }

  it('reports block reasons in priority order', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      await addEpisode(db, user.id);
      await setHostingReady(db, user.id, false);
      await connectGoogle(db, user.id, { expiresAt: hourAgo() });
      expect((await stats(db, user.id)).blockReason).toBe('google_drive_invalid');
      await db.query(`delete from public.oauth_connections where user_id = $1`, [user.id]);
      expect((await stats(db, user.id)).blockReason).toBe('google_drive_required');
      await connectGoogle(db, user.id);
      expect((await stats(db, user.id)).blockReason).toBe('hosting_setup');
      await setHostingReady(db, user.id, true);
      expect((await stats(db, user.id)).blockReason).toBe('monthly_limit');
    });
  });

  it('does not let an inactive subscription submit even without a block reason', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'growth');
      await subscribe(db, user.id, 'growth', 'canceled');
      expect(await stats(db, user.id)).toMatchObject({ canSubmit: false, blockReason: null });
    });
  });

  for (const [tier, limit] of [
    ['starter', 1],
    ['growth', 2],
    ['scale', 4],
  ] as const) {
    it(`limits ${tier} to ${limit} episode(s) a month`, async () => {
      await inRolledBackTx(async (db) => {
        const user = await createReadySubscriber(db, tier);
        for (let i = 0; i < limit - 1; i++) await addEpisode(db, user.id);
        expect(await stats(db, user.id)).toMatchObject({
          limit,
          thisMonth: limit - 1,
          canSubmit: true,
          blockReason: null,
        });
        await addEpisode(db, user.id);
        expect(await stats(db, user.id)).toMatchObject({
          limit,
          thisMonth: limit,
          currentCount: limit,
          canSubmit: false,
          blockReason: 'monthly_limit',
        });
      });
    });
  }

  it('never limits enterprise (limit null = unlimited)', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'enterprise');
      for (let i = 0; i < 12; i++) await addEpisode(db, user.id);
      expect(await stats(db, user.id)).toMatchObject({
        limit: null,
        thisMonth: 12,
        subscriptionTier: 'enterprise',
        canSubmit: true,
        blockReason: null,
      });
    });
  });

  it('counts calendar months in UTC', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      await db.query(`update public.profiles set hosting_ready_at = '2020-01-01Z' where id = $1`, [user.id]);
      await connectGoogle(db, user.id, { expiresAt: null });
      await setProcessing(db, await addEpisode(db, user.id, '2026-02-28T23:59:59.999Z'), 'delivered');
      // Still February in UTC: the limit is reached.
      expect(await statsAt(db, user.id, '2026-02-28T23:59:59.999Z')).toMatchObject({
        thisMonth: 1,
        blockReason: 'monthly_limit',
      });
      // March 1st 00:00 UTC: a new month, even though it is still February in New York.
      expect(await statsAt(db, user.id, '2026-03-01T00:00:00Z')).toMatchObject({
        thisMonth: 0,
        total: 1,
        blockReason: null,
        canSubmit: true,
      });
      await setProcessing(db, await addEpisode(db, user.id, '2026-03-01T00:00:00Z'), 'delivered');
      expect(await statsAt(db, user.id, '2026-03-31T23:59:59Z')).toMatchObject({
        thisMonth: 1,
        total: 2,
        blockReason: 'monthly_limit',
      });
      expect(await statsAt(db, user.id, '2026-04-01T00:00:00Z')).toMatchObject({
        thisMonth: 0,
        total: 2,
        blockReason: null,
      });
    });
  });

  it('counts this month against the real clock: last month does not count', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      const { rows } = await db.query(
        `select date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' as start`,
      );
      const monthStart = rows[0].start as Date;
      await setProcessing(db, await addEpisode(db, user.id, new Date(monthStart.getTime() - 1)), 'delivered');
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 0, total: 1, canSubmit: true });
      await setProcessing(db, await addEpisode(db, user.id, monthStart), 'delivered');
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, total: 2, blockReason: 'monthly_limit' });
    });
  });

  it('refuses anon', async () => {
    await inRolledBackTx(async (db) => {
      expect((await runAs(db, 'anon', 'select public.episode_stats()')).code).toBe('42501');
    });
  });
});

describe('submit_episode()', () => {
  async function ready(db: pg.Client, tier = 'growth') {
    const user = await createReadySubscriber(db, tier);
    const files = [`${user.id}/uploads/part-1.mp4`, `${user.id}/uploads/part-2.mp4`];
    for (const file of files) await addCheckedEpisodeFile(db, file);
    return { user, files };
  }

  it('writes the episode, its log and the outbox row together', async () => {
    await inRolledBackTx(async (db) => {
      const { user, files } = await ready(db);
      const options = {
        startTimestamp: '0:01:30',
        endTimestamp: '23:59:59',
        clipStyle: 'CREATIVE',
        daysBetweenClips: 30,
        addLogo: false,
      };
      const [{ result }] = await queryAs<{ result: Record<string, string> }>(
        db,
        { id: user.id },
        `select public.submit_episode($1, $2) as result`,
        [files, options],
      );
      expect(result).toMatchObject({ title: 'part-1' });
      const episode = (await db.query(`select * from public.episodes where id = $1`, [result.id])).rows[0];
      expect(episode).toMatchObject({
        user_id: user.id,
        files,
        start_timestamp: '0:01:30',
        end_timestamp: '23:59:59',
        clip_style: 'CREATIVE',
        days_between_clips: 30,
        add_logo: false,
        add_intro_outro: true,
      });
      const log = (await db.query(`select * from public.submission_logs where id = $1`, [result.submissionLogId]))
        .rows[0];
      expect(log).toMatchObject({
        episode_id: result.id,
        user_email: user.email,
        status: 'submitted',
        object_storage_files: files,
      });
      expect(log.submission_parameters).toEqual({ ...options, addIntroOutro: true });
      const delivery = (
        await db.query(`select * from public.webhook_deliveries where submission_log_id = $1`, [log.id])
      ).rows[0];
      expect(delivery).toMatchObject({ attempts: 0, delivered_at: null });
      expect(delivery.payload).toMatchObject({
        event: 'episode.submitted',
        episodeId: result.id,
        userEmail: user.email,
        objectStorageFiles: files,
        postAutomatically: true,
      });
      expect(await countRows(db, user.id)).toEqual({ episodes: 1, logs: 1, deliveries: 1 });
    });
  });

  it('applies the defaults', async () => {
    await inRolledBackTx(async (db) => {
      const { user, files } = await ready(db);
      await queryAs(db, { id: user.id }, `select public.submit_episode($1)`, [files.slice(0, 1)]);
      const { rows } = await db.query(`select submission_parameters from public.submission_logs where user_id = $1`, [
        user.id,
      ]);
      expect(rows[0].submission_parameters).toEqual({
        startTimestamp: null,
        endTimestamp: null,
        addLogo: true,
        addIntroOutro: true,
        clipStyle: 'DEFAULT',
        daysBetweenClips: 1,
      });
    });
  });

  const refusals: [string, (user: string, files: string[]) => [unknown, unknown], string, string][] = [
    ['a bad start timestamp', (_, f) => [f, { startTimestamp: '24:00:00' }], '22023', 'invalid_start_timestamp'],
    ['a bad end timestamp', (_, f) => [f, { endTimestamp: '1:60:00' }], '22023', 'invalid_end_timestamp'],
    ['a timestamp without seconds', (_, f) => [f, { startTimestamp: '01:30' }], '22023', 'invalid_start_timestamp'],
    ['daysBetweenClips 0', (_, f) => [f, { daysBetweenClips: 0 }], '22023', 'invalid_days_between_clips'],
    ['daysBetweenClips 31', (_, f) => [f, { daysBetweenClips: 31 }], '22023', 'invalid_days_between_clips'],
    ['daysBetweenClips 1.5', (_, f) => [f, { daysBetweenClips: 1.5 }], '22023', 'invalid_days_between_clips'],
    ['an unknown clip style', (_, f) => [f, { clipStyle: 'PORTRAIT' }], '22023', 'invalid_clip_style'],
    ['addLogo that is not a boolean', (_, f) => [f, { addLogo: 'yes' }], '22023', 'invalid_add_logo'],
    ['options that are not an object', (_, f) => [f, JSON.stringify([1])], '22023', 'invalid_options'],
    ['no files', () => [[], {}], '22023', 'no_files'],
    [
      '11 files',
      (u) => [Array.from({ length: 11 }, (_, i) => `${u}/uploads/part-${i}.mp4`), {}],
      '22023',
      'too_many_files',
    ],
    ['the same file twice', (_, f) => [[f[0], f[0]], {}], '22023', 'duplicate_file'],
    [
      'a file of another user',
      (_, f) => [[...f, 'aaaaaaaa-0000-4000-8000-000000000000/uploads/theirs.mp4'], {}],
      '42501',
      'file_not_owned',
    ],
    ['a file that was never uploaded', (u, f) => [[...f, `${u}/uploads/missing.mp4`], {}], 'PT404', 'file_not_found'],
  ];
  for (const [label, args, code, message] of refusals) {
    it(`refuses ${label} (${code} ${message}) and writes nothing`, async () => {
      await inRolledBackTx(async (db) => {
        const { user, files } = await ready(db);
        const outcome = await runAs(
          db,
          { id: user.id },
          `select public.submit_episode($1, $2)`,
          args(user.id, files),
          true,
        );
        expect(outcome).toMatchObject({ code, message });
        expect(await countRows(db, user.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
      });
    });
  }

  it('refuses a file of another user that really exists', async () => {
    await inRolledBackTx(async (db) => {
      const { user } = await ready(db);
      const { files: theirs } = await ready(db);
      const outcome = await runAs(db, { id: user.id }, `select public.submit_episode($1, '{}')`, [[theirs[0]]], true);
      expect(outcome).toMatchObject({ code: '42501', message: 'file_not_owned' });
      expect(await countRows(db, user.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
    });
  });

  it('refuses when the monthly limit is reached and writes nothing', async () => {
    await inRolledBackTx(async (db) => {
      const { user, files } = await ready(db, 'starter');
      await queryAs(db, { id: user.id }, `select public.submit_episode($1, '{}')`, [[files[0]]]);
      const outcome = await runAs(db, { id: user.id }, `select public.submit_episode($1, '{}')`, [[files[1]]], true);
      expect(outcome).toMatchObject({ code: 'PT403', message: 'monthly_limit' });
      expect(outcome.detail).toMatch(/Monthly episode submission limit reached/);
      expect(await countRows(db, user.id)).toEqual({ episodes: 1, logs: 1, deliveries: 1 });
    });
  });

  const gates: [string, (db: pg.Client, id: string) => Promise<unknown>, string, string][] = [
    [
      'without Google Drive',
      (db, id) => db.query(`delete from public.oauth_connections where user_id = $1`, [id]),
      'PT403',
      'google_drive_required',
    ],
    [
      'with an expired Google token',
      (db, id) => connectGoogle(db, id, { expiresAt: hourAgo() }),
      'PT403',
      'google_drive_invalid',
    ],
    ['before hosting is ready', (db, id) => setHostingReady(db, id, false), 'PT403', 'hosting_setup'],
    [
      'without an active subscription',
      (db, id) => subscribe(db, id, 'growth', 'past_due'),
      'PT402',
      'subscription_inactive',
    ],
  ];
  for (const [label, arrange, code, message] of gates) {
    it(`refuses ${label} (${message}) and writes nothing`, async () => {
      await inRolledBackTx(async (db) => {
        const { user, files } = await ready(db);
        await arrange(db, user.id);
        const outcome = await runAs(db, { id: user.id }, `select public.submit_episode($1, '{}')`, [files], true);
        expect(outcome).toMatchObject({ code, message });
        expect(await countRows(db, user.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
      });
    });
  }

  it('is not callable by anon and not bypassable by a direct insert', async () => {
    await inRolledBackTx(async (db) => {
      const { user, files } = await ready(db);
      expect((await runAs(db, 'anon', `select public.submit_episode($1, '{}')`, [files])).code).toBe('42501');
      expect((await runAs(db, 'anon', `select private.submit_episode($1, '{}')`, [files])).code).toBe('42501');
      const direct = await runAs(
        db,
        { id: user.id },
        `insert into public.episodes (user_id, title, files) values ($1, 't', $2)`,
        [user.id, files],
      );
      expect(direct.code).toBe('42501');
    });
  });

  it('takes only files checked at their current version, and a replacement racing it waits, then is refused', async () => {
    const { user, file } = await withDb(async (db) => {
      const user = await createReadySubscriber(db);
      const file = `${user.id}/uploads/race.mp4`;
      await addObject(db, 'episodes', file, 'video/mp4');
      return { user, file };
    });
    await withDb(async (submitter) => {
      await submitter.query('begin');
      const unchecked = await runAs(submitter, { id: user.id }, `select public.submit_episode($1, '{}')`, [[file]]);
      expect(unchecked).toMatchObject({ code: 'PT415', message: 'file_not_checked' });
      await markEpisodeFileChecked(submitter, file);
      await queryAs(submitter, { id: user.id }, `select public.submit_episode($1, '{}')`, [[file]]);
      await withDb(async (uploader) => {
        const [{ pid }] = (await uploader.query('select pg_backend_pid() as pid')).rows;
        // A new version of the object, as Storage writes an x-upsert upload.
        const replaced = uploader
          .query(`update storage.objects set version = gen_random_uuid()::text where bucket_id = 'episodes' and name = $1`, [file])
          .then(
            () => 'replaced',
            (error: Error) => error.message,
          );
        const deadline = Date.now() + 5000;
        for (;;) {
          const waiting = await submitter.query(`select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`, [pid]);
          if (waiting.rowCount) break;
          if (Date.now() > deadline) throw new Error(`the replacement did not wait for the submission: ${await replaced}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await submitter.query('commit');
        expect(await replaced).toBe('This file was submitted for processing and can no longer be replaced.');
      });
    });
  });
});

describe('admin resubmission and the outbox', () => {
  it('lets an admin resubmit a log, and nobody else', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'growth');
      const file = `${user.id}/uploads/ep.mp4`;
      await addCheckedEpisodeFile(db, file);
      const [{ r }] = await queryAs<{ r: Record<string, string> }>(
        db,
        { id: user.id },
        `select public.submit_episode($1, '{}') as r`,
        [[file]],
      );
      const admin = await createUser(db, { admin: true });
      const call = `select public.resubmit_submission($1, $2, $3, $4) as r`;
      const params = [[file], user.email, { clipStyle: 'PORTRAIT', daysBetweenClips: 3 }, r.submissionLogId];

      expect(await runAs(db, { id: user.id }, call, params)).toMatchObject({
        code: '42501',
        message: 'admin_required',
      });
      expect(
        (await runAs(db, { id: admin.id, admin: true }, call, [[], user.email, {}, r.submissionLogId])).message,
      ).toBe('no_files');
      expect((await runAs(db, { id: admin.id, admin: true }, call, [[file], ' ', {}, r.submissionLogId])).message).toBe(
        'email_required',
      );

      const [{ r: resubmitted }] = await queryAs<{ r: Record<string, string> }>(
        db,
        { id: admin.id, admin: true },
        call,
        params,
      );
      const log = (await db.query(`select * from public.submission_logs where id = $1`, [resubmitted.id])).rows[0];
      expect(log).toMatchObject({
        status: 'resubmitted',
        original_log_id: r.submissionLogId,
        submitted_by: admin.id,
        user_id: user.id,
        episode_id: r.id,
      });
      expect(log.submission_parameters).toMatchObject({ clipStyle: 'PORTRAIT', daysBetweenClips: 3, addLogo: true });
      expect(await countRows(db, user.id)).toEqual({ episodes: 1, logs: 2, deliveries: 2 });
    });
  });

  it("refuses files outside the named subscriber's folder, an unknown account and another's log, writing nothing", async () => {
    await inRolledBackTx(async (db) => {
      const owner = await createReadySubscriber(db, 'growth');
      const other = await createReadySubscriber(db, 'growth');
      const file = `${owner.id}/uploads/ep.mp4`;
      await addCheckedEpisodeFile(db, file);
      const [{ r }] = await queryAs<{ r: Record<string, string> }>(
        db,
        { id: owner.id },
        `select public.submit_episode($1, '{}') as r`,
        [[file]],
      );
      const admin = { id: (await createUser(db, { admin: true })).id, admin: true };
      const before = { owner: await countRows(db, owner.id), other: await countRows(db, other.id) };
      const refusals: [unknown[], string, string][] = [
        [[[file], other.email, {}, null], '22023', `File ${file} does not belong to ${other.email}.`],
        [[[file], other.email, {}, r.submissionLogId], '22023', `File ${file} does not belong to ${other.email}.`],
        [[[file], 'nobody-here@example.com', {}, null], 'PT404', 'No account uses nobody-here@example.com.'],
      ];
      for (const call of [
        'public.resubmit_submission($1, $2, $3, $4)',
        'public.admin_resubmit_submission($1, $2, $3, $4)',
      ]) {
        for (const [params, code, detail] of refusals) {
          expect(await runAs(db, admin, `select ${call}`, params)).toMatchObject({ code, detail });
        }
      }
      // The other subscriber's own file, with the owner's log as the original.
      const otherFile = `${other.id}/uploads/theirs.mp4`;
      await addObject(db, 'episodes', otherFile, 'video/mp4');
      expect(
        await runAs(db, admin, `select public.resubmit_submission($1, $2, $3, $4)`, [
          [otherFile],
          other.email,
          {},
          r.submissionLogId,
        ]),
      ).toMatchObject({ code: '22023', message: 'original_log_other_subscriber' });
      expect({ owner: await countRows(db, owner.id), other: await countRows(db, other.id) }).toEqual(before);
    });
  });

  it('claims due deliveries once, retries failures and marks the log', async () => {
    await inRolledBackTx(async (db) => {
      // The webhook takes the submission (with the built-in worker active the row is skipped).
      await db.query(`update private.automation_settings set automation = 'webhook'`);
      // Deliveries other files left due would be claimed first (oldest first, ten at a time):
      // in this rolled-back transaction they wait, so the claims below see this submission's.
      await db.query(`update public.webhook_deliveries set next_attempt_at = now() + interval '1 day' where delivered_at is null and failed_at is null`);
      const user = await createReadySubscriber(db, 'growth');
      const file = `${user.id}/uploads/ep.mp4`;
      await addCheckedEpisodeFile(db, file);
      const [{ r }] = await queryAs<{ r: Record<string, string> }>(
        db,
        { id: user.id },
        `select public.submit_episode($1, '{}') as r`,
        [[file]],
      );
      await db.query(`set local role service_role`);
      const claimed = await db.query(`select * from private.claim_webhook_deliveries(10)`);
      const mine = claimed.rows.find((d) => d.submission_log_id === r.submissionLogId);
      expect(mine).toMatchObject({ attempts: 1 });
      const again = await db.query(`select * from private.claim_webhook_deliveries(10)`);
      expect(again.rows.find((d) => d.submission_log_id === r.submissionLogId)).toBeUndefined();
      await db.query(`select private.record_webhook_attempt($1, false, 502, 'Bad gateway', '0 seconds')`, [mine.id]);
      const retried = await db.query(`select * from private.claim_webhook_deliveries(10)`);
      expect(retried.rows.find((d) => d.id === mine.id)).toMatchObject({ attempts: 2 });
      await db.query(`select private.record_webhook_attempt($1, true, 200)`, [mine.id]);
      const log = await db.query(`select status from public.submission_logs where id = $1`, [r.submissionLogId]);
      expect(log.rows[0].status).toBe('delivered');
      await db.query('reset role');
      expect((await runAs(db, { id: user.id }, `select * from private.claim_webhook_deliveries(10)`)).code).toBe(
        '42501',
      );
    });
  });
});
