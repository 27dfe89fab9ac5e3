// The outbox worker against the sandbox's automation receiver: signed deliveries whose URLs
// download the same bytes, retries with exponential backoff, giving up with the error kept,
// parallel runners, and a runner that died after claiming; and the outbox standing aside for
// submissions the built-in worker takes.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_DELIVERY_ATTEMPTS } from '../../supabase/functions/_shared/domain-server/outbox.ts';
import { config, withDb } from '../support/stack.ts';
import { createUser } from '../support/users.ts';
import {
  eventually,
  readySubmitter,
  receivedFor,
  runDeliveries,
  setReceiverBehaviour,
  submitEpisode,
  tokenOf,
  uploadEpisodeFile,
  callApi,
  setActiveAutomation,
  useAutomation,
} from '../support/episodes.ts';

useAutomation('webhook');

async function submitOne(tier = 'growth') {
  const user = await readySubmitter({ tier });
  const file = await uploadEpisodeFile(user, 50_000, 'show.mp4');
  const res = await submitEpisode(user, [file.path], { clipStyle: 'PROFESSIONAL', daysBetweenClips: 3 });
  expect(res.status).toBe(201);
  return { user, file, logId: res.body.episode.submissionLogId as string };
}

async function deliveryRow(logId: string) {
  return withDb(async (db) => {
    const { rows } = await db.query(
      `select d.id, d.attempts, d.last_error, d.last_status, d.delivered_at, d.failed_at, d.skipped_at,
              exists (select 1 from public.episode_processing p where p.submission_log_id = l.id) as processed_by_worker,
              extract(epoch from d.next_attempt_at - now())::float as due_in, l.status as log_status
         from public.webhook_deliveries d join public.submission_logs l on l.id = d.submission_log_id
        where d.submission_log_id = $1`,
      [logId],
    );
    return rows[0];
  });
}

/** Lets time pass for one delivery: its next attempt becomes due now. */
const makeDue = (logId: string) => withDb((db) => db.query('update public.webhook_deliveries set next_attempt_at = now() where submission_log_id = $1', [logId]));

describe('deliver-submissions', () => {
  it('only the scheduler (service role) may run it', async () => {
    const user = await createUser('onboarded');
    const res = await fetch(`${config.urls.api}/functions/v1/deliver-submissions`, { method: 'POST', headers: { authorization: `Bearer ${await tokenOf(user)}` } });
    expect(res.status).toBe(401);
  });

  it('posts one signed delivery whose download URLs give the same bytes', async () => {
    const { user, file, logId } = await submitOne('growth');
    const run = await runDeliveries();
    expect(run.status).toBe(200);
    expect(run.body.delivered).toBeGreaterThanOrEqual(1);

    const [delivery] = await receivedFor(logId);
    expect(delivery.outcome).toBe('accepted');
    const row = await deliveryRow(logId);
    expect(delivery.idempotencyKey).toBe(row.id);
    expect(row).toMatchObject({ attempts: 1, last_error: null, log_status: 'delivered' });
    expect(delivery.body).toMatchObject({
      event: 'episode.submitted',
      submissionLogId: logId,
      userEmail: user.email,
      postAutomatically: true,
      clipsPerEpisode: 5,
      subscriptionTier: 'growth',
      episodeData: { clipStyle: 'PROFESSIONAL', daysBetweenClips: 3, addLogo: true, addIntroOutro: true },
      returnUrl: `${config.urls.web}/done`,
      brandKit: expect.any(Object),
    });
    expect(delivery.body!.files[0]).toMatchObject({ path: file.path, name: 'show.mp4', expiresAt: expect.any(String) });

    const downloaded = await eventually(async () => {
      const [d] = await receivedFor(logId);
      return d.files[0].status === 'downloaded' ? d.files[0] : undefined;
    });
    expect(downloaded).toMatchObject({ bytes: file.bytes.length, sha256: file.sha256 });

    // The URL alone (no session) downloads the file: it is signed, and it expires.
    const direct = await fetch(delivery.body!.files[0].downloadUrl);
    expect(Buffer.from(await direct.arrayBuffer()).equals(file.bytes)).toBe(true);
    const tampered = await fetch(delivery.body!.files[0].downloadUrl.replace(/token=[^&]+/, 'token=forged'));
    expect(tampered.status).toBeGreaterThanOrEqual(400);

    // A second run finds nothing more to send for it.
    await runDeliveries();
    expect(await receivedFor(logId)).toHaveLength(1);
  });

  it('the receiver refuses a forged signature', async () => {
    const body = JSON.stringify({ submissionLogId: 'forged', files: [] });
    const t = Math.floor(Date.now() / 1000);
    const wrong = createHmac('sha256', 'not-the-secret').update(`${t}.${body}`).digest('hex');
    const res = await fetch(`${config.urls.sandbox}/automation/webhook`, { method: 'POST', headers: { 'castloop-signature': `t=${t},v1=${wrong}` }, body });
    expect(res.status).toBe(400);
    expect((await receivedFor('forged'))[0]).toMatchObject({ outcome: 'rejected', reason: 'signature does not match' });
  });

  it('receiver down for three attempts, then up: retried with growing waits, delivered exactly once', async () => {
    const { logId } = await submitOne();
    await setReceiverBehaviour({ failNext: 3, submissionLogId: logId });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await makeDue(logId);
      await runDeliveries();
      const row = await deliveryRow(logId);
      expect(row).toMatchObject({ attempts: attempt, last_status: 500, delivered_at: null, failed_at: null, log_status: 'submitted' });
      expect(row.last_error).toMatch(/^HTTP 500: .*told to fail/);
      waits.push(Math.round(row.due_in));
    }
    expect(waits[0]).toBeGreaterThanOrEqual(28);
    expect(waits[1]).toBeGreaterThanOrEqual(2 * waits[0] - 2);
    expect(waits[2]).toBeGreaterThanOrEqual(2 * waits[1] - 2);

    // Not due yet: a run now sends nothing for it.
    await runDeliveries();
    expect((await receivedFor(logId)).map((d) => d.outcome)).toEqual(['failed_on_purpose', 'failed_on_purpose', 'failed_on_purpose']);

    await makeDue(logId);
    await runDeliveries();
    await makeDue(logId);
    await runDeliveries();
    expect((await receivedFor(logId)).map((d) => d.outcome)).toEqual(['failed_on_purpose', 'failed_on_purpose', 'failed_on_purpose', 'accepted']);
    expect(await deliveryRow(logId)).toMatchObject({ attempts: 4, last_error: null, log_status: 'delivered' });
  });

  it("receiver down for good: 'failed' after the last attempt, the last error kept and visible to admins", async () => {
    const { logId } = await submitOne();
    await setReceiverBehaviour({ failNext: 1000, submissionLogId: logId });
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      await makeDue(logId);
      await runDeliveries();
    }
    const row = await deliveryRow(logId);
    expect(row).toMatchObject({ attempts: MAX_DELIVERY_ATTEMPTS, delivered_at: null, log_status: 'failed', last_status: 500 });
    expect(row.failed_at).not.toBeNull();
    expect(row.last_error).toMatch(/told to fail/);
    await makeDue(logId);
    await runDeliveries();
    expect(await receivedFor(logId)).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    await setReceiverBehaviour({ failNext: 0, submissionLogId: null });

    const admin = await createUser('admin');
    const seen = await fetch(`${config.urls.api}/rest/v1/webhook_deliveries?submission_log_id=eq.${logId}&select=attempts,last_error,failed_at`, {
      headers: { apikey: config.anonKey, authorization: `Bearer ${await tokenOf(admin)}` },
    });
    expect((await seen.json())[0]).toMatchObject({ attempts: MAX_DELIVERY_ATTEMPTS, last_error: row.last_error });
    const subscriber = await readySubmitter();
    expect((await callApi('GET', 'episodes', subscriber.token)).status).toBe(200);
    const hidden = await fetch(`${config.urls.api}/rest/v1/webhook_deliveries?select=id`, { headers: { apikey: config.anonKey, authorization: `Bearer ${subscriber.token}` } });
    expect(await hidden.json()).toEqual([]);
  });

  it('two runners at once deliver each submission exactly once', async () => {
    const logIds = await Promise.all([submitOne(), submitOne(), submitOne(), submitOne(), submitOne(), submitOne()].map(async (p) => (await p).logId));
    // Slow answers keep both runs busy at the same time.
    await setReceiverBehaviour({ delayMs: 300 });
    const [a, b] = await Promise.all([runDeliveries({ limit: 3 }), runDeliveries({ limit: 3 })]);
    await setReceiverBehaviour({ delayMs: 0 });
    await runDeliveries();
    expect(a.body.claimed + b.body.claimed).toBeGreaterThanOrEqual(6);
    for (const logId of logIds) {
      expect((await receivedFor(logId)).map((d) => d.outcome), logId).toEqual(['accepted']);
      expect(await deliveryRow(logId)).toMatchObject({ attempts: 1, log_status: 'delivered' });
    }
  });

  it('a runner killed after claiming leaves the row to be claimed again, and it is delivered once', async () => {
    const { logId } = await submitOne();
    // What a killed runner leaves behind: the row claimed (leased), no outcome recorded.
    await withDb((db) => db.query('select private.claim_webhook_deliveries(100)'));
    expect(await deliveryRow(logId)).toMatchObject({ attempts: 1, delivered_at: null });
    await runDeliveries();
    expect(await receivedFor(logId)).toHaveLength(0);
    // The lease runs out.
    await withDb((db) => db.query(`update public.webhook_deliveries set next_attempt_at = now() - interval '1 second' where submission_log_id = $1`, [logId]));
    await runDeliveries();
    await runDeliveries();
    expect((await receivedFor(logId)).map((d) => d.outcome)).toEqual(['accepted']);
    expect(await deliveryRow(logId)).toMatchObject({ attempts: 2, log_status: 'delivered' });
  });
});

describe('one automation at a time', () => {
  it('with the built-in worker active the outbox skips the submission; with the webhook active the worker never gets it', async () => {
    await setActiveAutomation('builtin');
    let builtinLog: string;
    try {
      ({ logId: builtinLog } = await submitOne());
    } finally {
      await setActiveAutomation('webhook');
    }
    const { logId: webhookLog } = await submitOne();
    await runDeliveries();
    await runDeliveries();

    expect(await receivedFor(builtinLog)).toHaveLength(0);
    expect(await deliveryRow(builtinLog)).toMatchObject({ attempts: 0, delivered_at: null, failed_at: null, processed_by_worker: true });
    expect((await deliveryRow(builtinLog)).skipped_at).toBeInstanceOf(Date);

    expect((await receivedFor(webhookLog)).map((d) => d.outcome)).toEqual(['accepted']);
    expect(await deliveryRow(webhookLog)).toMatchObject({ skipped_at: null, processed_by_worker: false, log_status: 'delivered' });
  });

  it('a skipped delivery is never claimed, however long it waits', async () => {
    await setActiveAutomation('builtin');
    let logId: string;
    try {
      ({ logId } = await submitOne());
    } finally {
      await setActiveAutomation('webhook');
    }
    await makeDue(logId);
    const claimed = await withDb(async (db) => (await db.query("select id, submission_log_id from private.claim_webhook_deliveries(1000, interval '1 second')")).rows);
    expect(claimed.map((row) => row.submission_log_id)).not.toContain(logId);
  });
});
