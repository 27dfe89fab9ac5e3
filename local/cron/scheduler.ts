// The local stand-in for pg_cron's and pg_net's background workers (hosted Supabase runs both
// inside Postgres). Jobs live in `cron.job` (created by migrations with `cron.schedule(...)`);
// this runs each active job on its schedule as the role that scheduled it, records the run in
// `cron.job_run_details`, and sends the requests `net.http_post` queued, writing the answers to
// `net._http_response`. It also sets the Vault secrets the jobs read (project URL, service key).
import pg from 'pg';
import type { StackConfig } from '../config.ts';
import { firesAt, parseSchedule } from './cron-expression.ts';

interface JobRow {
  jobid: string;
  jobname: string | null;
  schedule: string;
  command: string;
  username: string;
}

interface JobRun {
  status: 'succeeded' | 'failed';
  returnMessage: string;
  /** The pg_net requests the command queued (the rows its own transaction wrote). */
  queuedRequestIds: string[];
}

interface RunningScheduler {
  stop(): Promise<void>;
}

/** Runs one job's command now, as its role, and records the run (as pg_cron does). */
async function runJob(adminDbUrl: string, job: JobRow): Promise<JobRun> {
  const client = new pg.Client({ connectionString: adminDbUrl });
  client.on('error', () => {}); // a lost connection fails the running query, which is recorded
  await client.connect();
  const start = new Date();
  let run: JobRun;
  try {
    await client.query('begin');
    await client.query(`set local role ${pg.escapeIdentifier(job.username)}`);
    const result = await client.query(job.command);
    // Back to the admin role to read pg_net's queue, which the job's role may not see.
    await client.query('reset role');
    const queued = await client.query<{ id: string }>(`select id::text from net.http_request_queue where xmin = pg_current_xact_id()::xid order by id`);
    await client.query('commit');
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    run = { status: 'succeeded', returnMessage: `${last.rowCount ?? 0} row${last.rowCount === 1 ? '' : 's'}`, queuedRequestIds: queued.rows.map((row) => row.id) };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    run = { status: 'failed', returnMessage: (error as Error).message, queuedRequestIds: [] };
  }
  try {
    await client.query(
      `insert into cron.job_run_details (jobid, job_pid, database, username, command, status, return_message, start_time, end_time)
       values ($1, pg_backend_pid(), current_database(), $2, $3, $4, $5, $6, now())`,
      [job.jobid, job.username, job.command, run.status, run.returnMessage, start],
    );
  } finally {
    await client.end();
  }
  return run;
}

interface NetResponse {
  id: string;
  status_code: number | null;
  content: string | null;
  error_msg: string | null;
}

/**
 * Runs the job named `jobName` now, waits until the requests it queued have been answered,
 * and returns the run and those answers (only its own: the stack's scheduler may run other jobs
 * meanwhile, such as the every-minute outbox delivery). For tests: the stack's scheduler sends
 * the requests.
 */
export async function runCronJobNow(config: StackConfig, jobName: string, timeoutMs = 30_000): Promise<{ run: JobRun; responses: NetResponse[] }> {
  const admin = new pg.Client({ connectionString: config.urls.adminDb });
  await admin.connect();
  try {
    const { rows } = await admin.query<JobRow>('select jobid, jobname, schedule, command, username from cron.job where jobname = $1', [jobName]);
    if (rows.length !== 1) throw new Error(`no cron job named ${jobName}`);
    const run = await runJob(config.urls.adminDb, rows[0]);
    const ids = run.queuedRequestIds;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pending = await admin.query(`select 1 from net.http_request_queue where id = any($1::bigint[])`, [ids]);
      if (pending.rowCount === 0) break;
      if (Date.now() > deadline) throw new Error(`requests of job ${jobName} were not sent within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const responses = await admin.query<NetResponse>(
      `select id::text, status_code, content, error_msg from net._http_response where id = any($1::bigint[]) order by id`,
      [ids],
    );
    return { run, responses: responses.rows };
  } finally {
    await admin.end();
  }
}

/** Sends up to 20 queued requests; each leaves the queue when its answer is stored. */
async function sendQueued(client: pg.Client): Promise<void> {
  await client.query('begin');
  try {
    await sendBatch(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}

async function sendBatch(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ id: string; method: string; url: string; headers: Record<string, string>; body: Buffer | null; timeout_milliseconds: number }>(
    `select id::text, method, url, headers, body, timeout_milliseconds
       from net.http_request_queue order by id limit 20 for update skip locked`,
  );
  await Promise.all(
    rows.map(async (request) => {
      let response: { status: number | null; contentType: string | null; headers: Record<string, string>; content: string | null; timedOut: boolean; error: string | null };
      try {
        const res = await fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.method === 'GET' || !request.body ? undefined : new Uint8Array(request.body),
          signal: AbortSignal.timeout(request.timeout_milliseconds),
        });
        response = {
          status: res.status,
          contentType: res.headers.get('content-type'),
          headers: Object.fromEntries(res.headers),
          content: await res.text(),
          timedOut: false,
          error: null,
        };
      } catch (error) {
        const timedOut = (error as Error).name === 'TimeoutError';
        response = { status: null, contentType: null, headers: {}, content: null, timedOut, error: (error as Error).message };
      }
      await client.query(
        `insert into net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg) values ($1, $2, $3, $4, $5, $6, $7)`,
        [request.id, response.status, response.contentType, JSON.stringify(response.headers), response.content, response.timedOut, response.error],
      );
      await client.query('delete from net.http_request_queue where id = $1', [request.id]);
    }),
  );
}

export async function startScheduler(config: StackConfig, log: (line: string) => void = () => {}): Promise<RunningScheduler> {
  let stopped = false;
  let sending: Promise<void> | null = null;
  let sendAgain = false;
  // The listening and the sending connection. Dropped when the database goes away (a restart
  // of Postgres under npm start); the next tick connects again.
  let connection: { client: pg.Client; sender: pg.Client } | null = null;

  const send = () => {
    if (stopped || !connection) return;
    if (sending) {
      sendAgain = true;
      return;
    }
    sending = sendQueued(connection.sender)
      .catch((error: Error) => log(`[cron] sending queued requests failed: ${error.message}`))
      .finally(() => {
        sending = null;
        if (sendAgain) {
          sendAgain = false;
          send();
        }
      });
  };

  const connect = async (): Promise<{ client: pg.Client; sender: pg.Client }> => {
    const client = new pg.Client({ connectionString: config.urls.adminDb });
    const sender = new pg.Client({ connectionString: config.urls.adminDb });
    const drop = (error: Error) => {
      if (connection?.client !== client) return;
      connection = null;
      log(`[cron] lost the database (${error.message}); reconnecting`);
      void client.end().catch(() => {});
      void sender.end().catch(() => {});
    };
    client.on('error', drop);
    sender.on('error', drop);
    await client.connect();
    await sender.connect();
    await client.query('listen castloop_net');
    client.on('notification', send);
    connection = { client, sender };
    return connection;
  };

  const { client } = await connect();
  // What jobs calling Edge Functions read (docs/deploy.md sets the same on hosted Supabase).
  for (const [name, secret] of [
    ['project_url', config.urls.api],
    ['service_role_key', config.serviceRoleKey],
  ]) {
    await client.query(
      `insert into vault.secrets (name, secret) values ($1, $2)
       on conflict (name) do update set secret = excluded.secret, updated_at = now()`,
      [name, secret],
    );
  }

  const running = new Set<string>();
  const lastSecondsRun = new Map<string, number>();
  let lastMinute = Math.floor(Date.now() / 60_000);
  const tick = async () => {
    const now = Date.now();
    const minute = Math.floor(now / 60_000);
    const newMinute = minute !== lastMinute;
    lastMinute = minute;
    const { client } = connection ?? (await connect());
    const { rows } = await client.query<JobRow>('select jobid::text, jobname, schedule, command, username from cron.job where active');
    for (const job of rows) {
      if (running.has(job.jobid)) continue; // pg_cron never overlaps a job with itself
      let schedule;
      try {
        schedule = parseSchedule(job.schedule);
      } catch {
        continue;
      }
      const due =
        schedule.kind === 'seconds'
          ? now - (lastSecondsRun.get(job.jobid) ?? 0) >= schedule.every * 1000
          : newMinute && firesAt(schedule, new Date(minute * 60_000));
      if (!due) continue;
      if (schedule.kind === 'seconds') lastSecondsRun.set(job.jobid, now);
      running.add(job.jobid);
      void runJob(config.urls.adminDb, job)
        .then((run) => {
          if (run.status === 'failed') log(`[cron] job ${job.jobname ?? job.jobid} failed: ${run.returnMessage}`);
        })
        .catch((error: Error) => log(`[cron] job ${job.jobname ?? job.jobid} could not run: ${error.message}`))
        .finally(() => running.delete(job.jobid));
    }
    // Requests queued while nobody listened (or a missed notification).
    send();
  };
  const timer = setInterval(() => {
    tick().catch((error: Error) => log(`[cron] tick failed: ${error.message}`));
  }, 1000);
  timer.unref();

  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await sending;
      const open = connection;
      connection = null;
      await open?.client.end().catch(() => {});
      await open?.sender.end().catch(() => {});
    },
  };
}
