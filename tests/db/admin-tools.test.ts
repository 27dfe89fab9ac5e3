// The admin console's reads and the operator tools: administrators only, every action in the
// audit log, refusals that write nothing.
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { addCheckedEpisodeFile, addObject, createReadySubscriber, createUser, inRolledBackTx, queryAs, runAs, subscribe } from './db-support.ts';

type Json = Record<string, unknown>;

async function auditOf(db: pg.Client, targetUser: string): Promise<Json[]> {
  const { rows } = await db.query(
    `select admin_id, admin_email, action, target_user_id, details from public.admin_audit_log where target_user_id = $1 order by id`,
    [targetUser],
  );
  return rows;
}

async function asAdmin(
  db: pg.Client,
  admin: { id: string; email: string },
  sql: string,
  params: unknown[] = [],
): Promise<Json> {
  const rows = await queryAs<{ r: Json }>(
    db,
    { id: admin.id, admin: true, email: admin.email },
    `select ${sql} as r`,
    params,
  );
  return rows[0].r;
}

describe('operator tools', () => {
  const tools: [string, string, unknown[]][] = [
    ['admin_find_subscriber', 'public.admin_find_subscriber($1)', []],
    ['admin_mark_hosting_ready', 'public.admin_mark_hosting_ready($1)', []],
    ['admin_set_internal_test_account', 'public.admin_set_internal_test_account($1, true)', []],
    ['admin_set_admin_role', 'public.admin_set_admin_role($1, true)', []],
  ];

  for (const [name, call] of tools) {
    it(`${name}: refused to anon and to a subscriber, with nothing changed or recorded`, async () => {
      await inRolledBackTx(async (db) => {
        const user = await createUser(db);
        const before = (
          await db.query(`select hosting_ready_at, is_internal_test_account from public.profiles where id = $1`, [
            user.id,
          ])
        ).rows[0];
        expect((await runAs(db, 'anon', `select ${call}`, [user.email])).code).toBe('42501');
        expect(await runAs(db, { id: user.id }, `select ${call}`, [user.email])).toMatchObject({
          code: '42501',
          message: 'admin_required',
        });
        const after = (
          await db.query(`select hosting_ready_at, is_internal_test_account from public.profiles where id = $1`, [
            user.id,
          ])
        ).rows[0];
        expect(after).toEqual(before);
        const role = await db.query(`select raw_app_meta_data ->> 'role' as role from auth.users where id = $1`, [
          user.id,
        ]);
        expect(role.rows[0].role).toBeNull();
        expect(await auditOf(db, user.id)).toEqual([]);
      });
    });
  }

  it('looks a subscriber up by e-mail (any case) and records the lookup', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'scale');
      const admin = await createUser(db, { admin: true });
      const found = await asAdmin(db, admin, 'public.admin_find_subscriber($1)', [`  ${user.email.toUpperCase()} `]);
      expect(found).toMatchObject({
        id: user.id,
        email: user.email,
        subscriptionStatus: 'active',
        subscriptionTier: 'scale',
        onboardingCompleted: false,
        isInternalTestAccount: false,
        isAdmin: false,
        episodesTotal: 0,
      });
      expect(found.hostingReadyAt).not.toBeNull();
      expect(await auditOf(db, user.id)).toEqual([
        {
          admin_id: admin.id,
          admin_email: admin.email,
          action: 'subscriber.lookup',
          target_user_id: user.id,
          details: { email: user.email.toUpperCase() },
        },
      ]);
    });
  });

  it('answers PT404 (HTTP 404) for an unknown e-mail and 22023 for a blank one', async () => {
    await inRolledBackTx(async (db) => {
      const admin = await createUser(db, { admin: true });
      const actor = { id: admin.id, admin: true };
      expect(await runAs(db, actor, `select public.admin_find_subscriber('nobody@example.com')`)).toMatchObject({
        code: 'PT404',
        message: 'subscriber_not_found',
      });
      expect(await runAs(db, actor, `select public.admin_mark_hosting_ready(' ')`)).toMatchObject({
        code: '22023',
        message: 'email_required',
      });
    });
  });

  it('marks hosting ready (unblocking submission) and can undo it', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const admin = await createUser(db, { admin: true });
      const ready = await asAdmin(db, admin, 'public.admin_mark_hosting_ready($1)', [user.email]);
      expect(ready.hostingReadyAt).not.toBeNull();
      const stats = await queryAs<{ s: Json }>(db, { id: user.id }, `select public.episode_stats() as s`);
      expect(stats[0].s.hostingSetup).toBe(true);
      const undone = await asAdmin(db, admin, 'public.admin_mark_hosting_ready($1, false)', [user.email]);
      expect(undone.hostingReadyAt).toBeNull();
      expect((await auditOf(db, user.id)).map((a) => [a.action, a.details])).toEqual([
        ['hosting.mark_ready', { ready: true }],
        ['hosting.mark_ready', { ready: false }],
      ]);
    });
  });

  it('flags the internal test account; the user cannot set the flag themselves', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const admin = await createUser(db, { admin: true });
      const own = await runAs(
        db,
        { id: user.id },
        `update public.profiles set is_internal_test_account = true where id = $1`,
        [user.id],
      );
      expect(own.code).toBe('42501');
      expect(
        (await asAdmin(db, admin, 'public.admin_set_internal_test_account($1)', [user.email])).isInternalTestAccount,
      ).toBe(true);
      const flag = await db.query(`select is_internal_test_account from public.profiles where id = $1`, [user.id]);
      expect(flag.rows[0].is_internal_test_account).toBe(true);
      expect(
        (await asAdmin(db, admin, 'public.admin_set_internal_test_account($1, false)', [user.email]))
          .isInternalTestAccount,
      ).toBe(false);
    });
  });

  it('grants and revokes the admin role in app_metadata, but never the caller’s own', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const admin = await createUser(db, { admin: true });
      expect((await asAdmin(db, admin, 'public.admin_set_admin_role($1, true)', [user.email])).isAdmin).toBe(true);
      const meta = async () =>
        (await db.query(`select raw_app_meta_data as m from auth.users where id = $1`, [user.id])).rows[0].m;
      expect(await meta()).toEqual({ provider: 'email', providers: ['email'], role: 'admin' });
      expect((await asAdmin(db, admin, 'public.admin_set_admin_role($1, false)', [user.email])).isAdmin).toBe(false);
      expect(await meta()).toEqual({ provider: 'email', providers: ['email'] });
      expect(
        await runAs(db, { id: admin.id, admin: true }, `select public.admin_set_admin_role($1, false)`, [admin.email]),
      ).toMatchObject({
        code: '22023',
        message: 'cannot_revoke_self',
      });
      expect((await auditOf(db, user.id)).map((a) => a.action)).toEqual(['admin_role.grant', 'admin_role.revoke']);
    });
  });
});

describe('admin console reads', () => {
  it('lists submission logs newest first with their outbox state, paged, for admins only', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'scale');
      const admin = await createUser(db, { admin: true });
      const file = `${user.id}/uploads/ep.mp4`;
      await addCheckedEpisodeFile(db, file);
      const [{ r }] = await queryAs<{ r: Json }>(db, { id: user.id }, `select public.submit_episode($1, '{}') as r`, [
        [file],
      ]);
      // One transaction has one now(): date the original earlier, as it would be.
      await db.query(
        `update public.submission_logs set submitted_at = now() - interval '1 millisecond' where id = $1`,
        [r.submissionLogId],
      );
      await queryAs(db, { id: admin.id, admin: true }, `select public.resubmit_submission($1, $2, '{}', $3)`, [
        [file],
        user.email,
        r.submissionLogId,
      ]);

      expect(await runAs(db, { id: user.id }, `select public.admin_submission_logs()`)).toMatchObject({
        code: '42501',
      });
      expect((await runAs(db, 'anon', `select public.admin_submission_logs()`)).code).toBe('42501');

      const first = await asAdmin(db, admin, 'public.admin_submission_logs(null, null, 1)');
      const [newest] = first.logs as Json[];
      expect(newest).toMatchObject({
        status: 'resubmitted',
        userEmail: user.email,
        originalLogId: r.submissionLogId,
        objectStorageFiles: [file],
        // The built-in worker (the active automation) took it: the outbox stands aside.
        delivery: { state: 'skipped', attempts: 0, lastError: null },
        processing: { status: 'queued', stage: null, progress: 0, failureReason: null },
      });
      const next = first.next as { submittedAt: string; id: string };
      expect(next.id).toBe(newest.id);
      const second = await asAdmin(db, admin, 'public.admin_submission_logs($1, $2, 1)', [next.submittedAt, next.id]);
      expect((second.logs as Json[])[0]).toMatchObject({ id: r.submissionLogId, status: 'submitted' });

      const audit = await auditOf(db, user.id);
      expect(audit).toEqual([
        {
          admin_id: admin.id,
          admin_email: admin.email,
          action: 'episode.resubmit',
          target_user_id: user.id,
          details: {
            submissionLogId: newest.id,
            originalLogId: r.submissionLogId,
            userEmail: user.email,
            objectStorageFiles: [file],
          },
        },
      ]);
    });
  });

  it('lists episode files in path order, paged after a path, for admins only', async () => {
    await inRolledBackTx(async (db) => {
      const admin = await createUser(db, { admin: true });
      const user = await createUser(db);
      await subscribe(db, user.id); // uploads are for subscribers only
      const prefix = `${user.id}/files`;
      for (const n of [1, 2, 3]) await addObject(db, 'episodes', `${prefix}/part-${n}.mp4`, 'video/mp4');
      expect(await runAs(db, { id: user.id }, `select public.admin_episode_files()`)).toMatchObject({ code: '42501' });
      const page = await asAdmin(db, admin, 'public.admin_episode_files($1, 2)', [`${prefix}/`]);
      expect(page.files).toEqual([
        { path: `${prefix}/part-1.mp4`, name: 'part-1.mp4', size: 1024, uploaded: expect.any(String) },
        { path: `${prefix}/part-2.mp4`, name: 'part-2.mp4', size: 1024, uploaded: expect.any(String) },
      ]);
      expect(page.next).toBe(`${prefix}/part-2.mp4`);
      const rest = await asAdmin(db, admin, 'public.admin_episode_files($1, 2)', [page.next]);
      expect((rest.files as Json[])[0]).toMatchObject({ path: `${prefix}/part-3.mp4` });
      expect((await runAs(db, { id: admin.id, admin: true }, `select public.admin_episode_files(null, 0)`)).code).toBe(
        '22023',
      );
    });
  });

  it('tells the SPA whether the signed-in user is an administrator', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const admin = await createUser(db, { admin: true });
      expect(
        (await queryAs<{ a: Json }>(db, { id: user.id }, `select public.current_account() as a`))[0].a.isAdmin,
      ).toBe(false);
      expect(
        (await queryAs<{ a: Json }>(db, { id: admin.id, admin: true }, `select public.current_account() as a`))[0].a
          .isAdmin,
      ).toBe(true);
    });
  });

  it('keeps the audit log server-written and admin-readable', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const admin = await createUser(db, { admin: true });
      await asAdmin(db, admin, 'public.admin_find_subscriber($1)', [user.email]);
      const sql = `select action from public.admin_audit_log where target_user_id = $1`;
      expect((await runAs(db, { id: admin.id, admin: true }, sql, [user.id])).rowCount).toBe(1);
      expect((await runAs(db, { id: user.id }, sql, [user.id])).rowCount).toBe(0);
      const forged = `insert into public.admin_audit_log (admin_id, action) values ($1, 'forged')`;
      expect((await runAs(db, { id: admin.id, admin: true }, forged, [admin.id])).code).toBe('42501');
    });
  });
});

// The token's claim says admin until it expires; the rights follow the account's record and
// its session (private.is_admin()).
describe('admin rights follow the account and its session, not the token', () => {
  async function openSession(db: pg.Client, userId: string): Promise<string> {
    const { rows } = await db.query(
      `insert into auth.sessions (id, user_id) values (gen_random_uuid(), $1) returning id`,
      [userId],
    );
    return rows[0].id as string;
  }

  it('a revoked administrator is refused at once, even with the old token, and cannot take the role back', async () => {
    await inRolledBackTx(async (db) => {
      const first = await createUser(db, { admin: true });
      const second = await createUser(db, { admin: true });
      const oldToken = { id: second.id, admin: true, email: second.email, sessionId: await openSession(db, second.id) };
      expect(
        (await queryAs<{ r: Json }>(db, oldToken, `select public.admin_find_subscriber($1) as r`, [first.email]))[0].r,
      ).toMatchObject({ id: first.id });

      await asAdmin(db, first, 'public.admin_set_admin_role($1, false)', [second.email]);

      expect(await runAs(db, oldToken, `select public.admin_set_admin_role($1, true)`, [second.email])).toMatchObject({
        code: '42501',
        message: 'admin_required',
      });
      expect(await runAs(db, oldToken, `select public.admin_find_subscriber($1)`, [first.email])).toMatchObject({
        code: '42501',
      });
      expect(await runAs(db, oldToken, `select public.admin_submission_logs()`)).toMatchObject({ code: '42501' });
      expect((await runAs(db, oldToken, `select action from public.admin_audit_log`)).rowCount).toBe(0);
      expect((await runAs(db, oldToken, `select id from public.profiles where id = $1`, [first.id])).rowCount).toBe(0);
      expect((await queryAs<{ a: Json }>(db, oldToken, `select public.current_account() as a`))[0].a.isAdmin).toBe(
        false,
      );
      const role = await db.query(`select raw_app_meta_data ->> 'role' as role from auth.users where id = $1`, [
        second.id,
      ]);
      expect(role.rows[0].role).toBeNull();
    });
  });

  it('a signed-out administrator (session ended) is refused, with the token still unexpired', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const admin = await createUser(db, { admin: true });
      const token = { id: admin.id, admin: true, email: admin.email, sessionId: await openSession(db, admin.id) };
      expect((await runAs(db, token, `select public.admin_find_subscriber($1)`, [user.email])).code).toBeUndefined();
      expect((await runAs(db, token, `select id from public.profiles where id = $1`, [user.id])).rowCount).toBe(1);

      await db.query(`delete from auth.sessions where id = $1`, [token.sessionId]);

      expect(await runAs(db, token, `select public.admin_find_subscriber($1)`, [user.email])).toMatchObject({
        code: '42501',
        message: 'admin_required',
      });
      expect(await runAs(db, token, `select public.admin_episode_files()`)).toMatchObject({ code: '42501' });
      expect((await runAs(db, token, `select id from public.profiles where id = $1`, [user.id])).rowCount).toBe(0);
      expect((await runAs(db, token, `select public.is_admin() as a`)).rows).toEqual([{ a: false }]);
    });
  });
});
