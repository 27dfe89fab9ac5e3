// The e-mail outbox in SQL (issue 43, item 1): each event the product promises an e-mail for
// queues exactly one, in the transaction of its state change; an unsubscribed kind is not queued
// (an essential one always is); the sender's claim counts attempts and skips what was unsubscribed
// meanwhile, and a failed attempt is tried again later, then given up.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { EMAIL_ESSENTIAL_KINDS, EMAIL_KINDS } from '@domain/email';
import { addEpisode, connectGoogle, createReadySubscriber, createUser, inRolledBackTx, setProcessing, subscribe, withDb } from './db-support.ts';

interface QueuedEmail {
  kind: string;
  event_key: string;
  recipient: string;
  data: Record<string, unknown>;
}

async function queued(db: pg.Client, userId: string): Promise<QueuedEmail[]> {
  const { rows } = await db.query<QueuedEmail>(
    `select kind, event_key, recipient, data from private.email_outbox where user_id = $1 order by created_at, kind`,
    [userId],
  );
  return rows;
}

/** The kinds queued, sorted (one transaction's rows share their creation time). */
const kinds = (rows: QueuedEmail[]) => rows.map((row) => row.kind).sort();

describe('the e-mail outbox', () => {
  it('queues one e-mail per event, in the state change, with what its template shows', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      const episode = await addEpisode(db, user.id);
      const logId = await setProcessing(db, episode, 'processing');
      await db.query(`update public.episodes set title = 'Garden Talk' where id = $1`, [episode]);
      // Delivered with nothing holding posting and no window left: 'delivered'.
      await db.query(
        `update public.episode_processing set status = 'delivered', drive_folder_url = 'https://drive.google.com/drive/folders/f1',
                review_due_at = now() where submission_log_id = $1`,
        [logId],
      );
      // The same state again is no new event.
      await db.query(`update public.episode_processing set status = 'delivered', progress = 100 where submission_log_id = $1`, [logId]);
      const rows = await queued(db, user.id);
      // Hosting ready is the ready subscriber's own event (set up before the episode).
      expect(kinds(rows)).toEqual(['allowance_reached', 'delivered', 'hosting_ready', 'submission_received']);
      const delivered = rows.find((row) => row.kind === 'delivered')!;
      expect(delivered.recipient).toBe(user.email);
      expect(delivered.data).toMatchObject({ episodeId: episode, title: 'Garden Talk', driveFolderUrl: 'https://drive.google.com/drive/folders/f1', firstName: 'Test' });
      expect(rows.find((row) => row.kind === 'allowance_reached')!.data).toMatchObject({ limit: 1, used: 1, tier: 'starter' });
    });
  });

  it('says ready for review when something holds posting or the window has not passed', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db);
      for (const [hold, due] of [['title', null], [null, '1 day']] as const) {
        const logId = await setProcessing(db, await addEpisode(db, user.id), 'processing');
        await db.query(
          `update public.episode_processing set status = 'delivered', review_hold = $2, review_due_at = now() + $3::interval where submission_log_id = $1`,
          [logId, hold, due],
        );
      }
      const rows = (await queued(db, user.id)).filter((row) => row.kind === 'ready_for_review');
      const shown = rows.map((row) => [row.data.hold, row.data.dueAt === null]).sort((a) => (a[0] ? -1 : 1));
      expect(shown).toEqual([['title', true], [null, false]]);
    });
  });

  it('queues a failure with its reason and whether a retry can help, once', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db);
      const logId = await setProcessing(db, await addEpisode(db, user.id), 'processing');
      const { rows } = await db.query(`select id from public.episode_processing where submission_log_id = $1`, [logId]);
      const failedNow = await db.query(`select private.processing_failed($1, 'episode.mp4 has no video stream', true) as failed`, [rows[0].id]);
      expect(failedNow.rows[0].failed).toBe(true);
      await db.query(`update public.episode_processing set status = 'failed' where id = $1`, [rows[0].id]);
      const failed = (await queued(db, user.id)).filter((row) => row.kind === 'failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ event_key: `failed:${rows[0].id}`, data: { reason: 'episode.mp4 has no video stream', permanent: true } });
    });
  });

  it('queues hosting ready, and a connection that needs reconnecting each time it turns', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      await subscribe(db, user.id);
      const connection = await connectGoogle(db, user.id, { status: 'connected' });
      await db.query(`update public.profiles set hosting_ready_at = now() where id = $1`, [user.id]);
      await db.query(`select private.record_token_refresh_failure($1, 'invalid_grant', true)`, [connection]);
      // Failing again changes nothing; within one transaction a second turn is the same event (its
      // key holds the transaction's time).
      await db.query(`select private.record_token_refresh_failure($1, 'invalid_grant', true)`, [connection]);
      await db.query(`update public.oauth_connections set status = 'connected' where id = $1`, [connection]);
      await db.query(`update public.oauth_connections set status = 'expired', updated_at = now() + interval '1 second' where id = $1`, [connection]);
      const rows = await queued(db, user.id);
      expect(kinds(rows)).toEqual(['hosting_ready', 'reconnect']);
      expect(rows.find((row) => row.kind === 'reconnect')!.data).toMatchObject({ provider: 'google' });
    });
    // A second turn in another transaction is another e-mail.
    await withDb(async (db) => {
      const user = await createUser(db);
      const connection = await connectGoogle(db, user.id, { status: 'connected' });
      await db.query(`update public.oauth_connections set status = 'failed' where id = $1`, [connection]);
      await db.query(`update public.oauth_connections set status = 'connected' where id = $1`, [connection]);
      await db.query(`update public.oauth_connections set status = 'failed' where id = $1`, [connection]);
      expect(kinds(await queued(db, user.id))).toEqual(['reconnect', 'reconnect']);
    });
  });

  it('queues nothing of a kind the subscriber unsubscribed from, but always the essential ones', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      for (const kind of EMAIL_KINDS) {
        const { rows } = await db.query(`select private.email_unsubscribe($1, $2) as allowed`, [user.id, kind]);
        expect(rows[0].allowed, kind).toBe(!(EMAIL_ESSENTIAL_KINDS as readonly string[]).includes(kind));
      }
      const logId = await setProcessing(db, await addEpisode(db, user.id), 'processing');
      await db.query(`update public.episode_processing set status = 'failed', failure_reason = 'gone' where submission_log_id = $1`, [logId]);
      expect(kinds(await queued(db, user.id))).toEqual(['failed', 'hosting_ready']);
    });
  });

  it('claims due e-mails once, skips what was unsubscribed meanwhile, retries with backoff, then gives up', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      await db.query(
        `insert into private.email_outbox (event_key, kind, user_id, recipient)
         values ('test:1:' || $1, 'delivered', $1::uuid, $2), ('test:2:' || $1, 'submission_received', $1::uuid, $2),
                ('test:3:' || $1, 'failed', $1::uuid, $2)`,
        [user.id, user.email],
      );
      await db.query(`select private.email_unsubscribe($1, 'submission_received')`, [user.id]);
      const claim = async () =>
        (await db.query<{ id: string; kind: string; attempts: number }>(`select id, kind, attempts from private.claim_emails(100, '5 minutes') where user_id = $1 order by kind`, [user.id])).rows;
      const first = await claim();
      expect(first.map((row) => [row.kind, row.attempts])).toEqual([['delivered', 1], ['failed', 1]]);
      // Leased: a second run takes nothing.
      expect(await claim()).toEqual([]);
      const [delivered, failed] = first;
      await db.query(`select private.record_email_attempt($1, true, null, '1 minute', false)`, [delivered.id]);
      await db.query(`select private.record_email_attempt($1, false, 'SMTP 451 try later', '1 minute', false)`, [failed.id]);
      const state = async (id: string) =>
        (await db.query(`select sent_at is not null as sent, failed_at is not null as gave_up, skipped_at is not null as skipped, last_error,
                                next_attempt_at > now() + interval '50 seconds' as later from private.email_outbox where id = $1`, [id])).rows[0];
      expect(await state(delivered.id)).toMatchObject({ sent: true, gave_up: false, last_error: null });
      expect(await state(failed.id)).toMatchObject({ sent: false, gave_up: false, last_error: 'SMTP 451 try later', later: true });
      expect((await db.query(`select skipped_at is not null as skipped from private.email_outbox where kind = 'submission_received' and user_id = $1`, [user.id])).rows[0].skipped).toBe(true);
      // Due again after the delay; the last attempt gives up.
      await db.query(`update private.email_outbox set next_attempt_at = now() where id = $1`, [failed.id]);
      expect((await claim()).map((row) => [row.kind, row.attempts])).toEqual([['failed', 2]]);
      await db.query(`select private.record_email_attempt($1, false, 'SMTP 550 no such user', '1 minute', true)`, [failed.id]);
      expect(await state(failed.id)).toMatchObject({ gave_up: true, last_error: 'SMTP 550 no such user' });
      await db.query(`update private.email_outbox set next_attempt_at = now() where id = $1`, [failed.id]);
      expect(await claim()).toEqual([]);
    });
  });

  it('never holds up the change that is the event', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db);
      // An event key the outbox refuses (too long) is a warning; the episode is still delivered.
      await db.query(`select private.queue_email($1, 'delivered', repeat('x', 400), '{}')`, [user.id]);
      const logId = await setProcessing(db, await addEpisode(db, user.id), 'processing');
      await db.query(`update public.episode_processing set status = 'delivered' where submission_log_id = $1`, [logId]);
      const { rows } = await db.query(`select status from public.episode_processing where submission_log_id = $1`, [logId]);
      expect(rows[0].status).toBe('delivered');
      expect((await queued(db, user.id)).every((row) => row.event_key.length <= 300)).toBe(true);
    });
  });
});
