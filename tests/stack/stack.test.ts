// The local stack behaves like Supabase: PostgREST applies RLS per JWT, functions honour
// verify_jwt, migrations apply from scratch repeatedly, and stopping leaves nothing behind.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { loadConfig, repoRoot } from '../../local/config.ts';
import type { SupervisedService } from '../../local/lib/process.ts';
import { listMigrations, startDatabase, wipeData } from '../../local/postgres/database.ts';
import { startStack } from '../../local/stack.ts';
import { config, withDb } from '../support/stack.ts';

const secret = new TextEncoder().encode(config.jwtSecret);
const userA = '0b7d6f5e-0000-4000-8000-00000000000a';
const userB = '0b7d6f5e-0000-4000-8000-00000000000b';

function userJwt(sub: string, expiresIn = '1h'): Promise<string> {
  return new SignJWT({ sub, role: 'authenticated', aud: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(secret);
}

async function rest(pathAndQuery: string, bearer?: string): Promise<Response> {
  const headers: Record<string, string> = { apikey: config.anonKey };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  return fetch(`${config.urls.api}/rest/v1/${pathAndQuery}`, { headers });
}

describe('PostgREST through the gateway', () => {
  beforeAll(async () => {
    await withDb(async (db) => {
      await db.query(`
        create table public.stack_probe (id int primary key, owner uuid, is_public boolean not null, body text);
        alter table public.stack_probe enable row level security;
        -- Hosted Supabase grants nothing by default on new tables (nor does the local bootstrap).
        grant select on public.stack_probe to anon, authenticated;
        create policy "anyone reads public rows" on public.stack_probe for select to anon, authenticated using (is_public);
        create policy "owners read their rows" on public.stack_probe for select to authenticated using (owner = (select auth.uid()));
        insert into public.stack_probe values (1, null, true, 'public'), (2, '${userA}', false, 'a'), (3, '${userB}', false, 'b');
        notify pgrst, 'reload schema';
      `);
    });
    // PostgREST reloads its schema cache asynchronously.
    for (let i = 0; i < 50; i++) {
      if ((await rest('stack_probe?select=id')).status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(() => withDb((db) => db.query('drop table public.stack_probe; notify pgrst, \'reload schema\';')));

  it('requires an API key, as Supabase does', async () => {
    const res = await fetch(`${config.urls.api}/rest/v1/stack_probe`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'No API key found in request' });
  });

  it('shows anon only the rows RLS allows', async () => {
    const res = await rest('stack_probe?select=id,body&order=id');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: 1, body: 'public' }]);
  });

  it('shows a signed-in user the public rows and their own', async () => {
    const res = await rest('stack_probe?select=id,body&order=id', await userJwt(userA));
    expect(await res.json()).toEqual([
      { id: 1, body: 'public' },
      { id: 2, body: 'a' },
    ]);
  });

  it('refuses an expired or tampered token', async () => {
    const expired = await userJwt(userA, '-1m');
    expect((await rest('stack_probe', expired)).status).toBe(401);
    const token = await userJwt(userA);
    const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    expect((await rest('stack_probe', tampered)).status).toBe(401);
  });
});

describe('Edge Functions through the gateway', () => {
  const fn = (name: string, headers: Record<string, string> = {}) => fetch(`${config.urls.api}/functions/v1/${name}`, { headers });

  it('serves the api function without a JWT (verify_jwt = false in config.toml)', async () => {
    const res = await fn('api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', service: 'api' });
  });

  it('refuses a verify_jwt function without a valid JWT', async () => {
    const missing = await fn('echo-claims');
    expect(missing.status).toBe(401);
    expect((await missing.json()).message).toBe('Missing authorization header');
    const bad = await fn('echo-claims', { authorization: `Bearer ${(await userJwt(userA)).slice(0, -2)}xx` });
    expect(bad.status).toBe(401);
  });

  it('passes a valid JWT through and strips /functions/v1 from the path', async () => {
    const res = await fn('echo-claims/deep/path', { authorization: `Bearer ${config.anonKey}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ role: 'anon', path: '/echo-claims/deep/path' });
  });

  it('answers an unknown function with 404', async () => {
    const res = await fn('no-such-function', { authorization: `Bearer ${config.anonKey}` });
    expect(res.status).toBe(404);
  });
});

describe('mailbox', () => {
  it("receives SMTP mail and lists it through maildev's REST API at /email", async () => {
    const to = `mailbox-${Date.now()}@example.com`;
    const transport = nodemailer.createTransport({ host: config.host, port: config.ports.smtp, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'castloop@example.com', to, subject: 'Mailbox check', text: 'hello' });
    const res = await fetch(`${config.urls.mailbox}/email`);
    expect(res.status).toBe(200);
    const emails = (await res.json()) as Array<{ subject: string; to: Array<{ address: string }> }>;
    expect(emails.some((email) => email.subject === 'Mailbox check' && email.to[0].address === to)).toBe(true);
  });

  it('lets only the local app and the mailbox itself read mail from a browser', async () => {
    const read = (origin: string, init: RequestInit = {}) => fetch(`${config.urls.mailbox}/email`, { ...init, headers: { origin, ...init.headers } });
    for (const origin of ['https://attacker.example', 'null', 'http://127.0.0.1:1']) {
      const res = await read(origin);
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(await res.json()).toEqual({ message: 'The local mailbox answers only the local app and itself' });
      const preflight = await read(origin, { method: 'OPTIONS', headers: { 'access-control-request-method': 'DELETE' } });
      expect(preflight.status, origin).toBe(403);
      expect(preflight.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
    // A site whose name resolves to 127.0.0.1 (DNS rebinding) is same-origin: no Origin, its own Host.
    const rebound = await new Promise<number>((resolve, reject) =>
      http
        .get(`${config.urls.mailbox}/email`, { headers: { host: `attacker.example:${config.ports.mailboxWeb}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject),
    );
    expect(rebound).toBe(403);
    for (const origin of [config.urls.web, config.urls.mailbox, config.urls.mailbox.replace('127.0.0.1', 'localhost')]) {
      const res = await read(origin);
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(res.headers.get('access-control-allow-credentials'), origin).toBe('true');
      expect(Array.isArray(await res.json())).toBe(true);
    }
  });
});

/** A second stack on ports of its own, so it never disturbs the one the other tests use. */
function probeConfig(name: string, shift: number) {
  return loadConfig('test', {
    CASTLOOP_TEST_PORT_BASE: String(Number(config.env.CASTLOOP_TEST_PORT_BASE ?? 23000) + shift),
    CASTLOOP_DATA_DIR: path.join(path.dirname(config.dataDir), name),
  });
}

/** Listens on each port that is free (one already taken is held anyway). */
async function holdPorts(ports: number[]): Promise<net.Server[]> {
  const held = await Promise.all(
    ports.map(
      (port) =>
        new Promise<net.Server | null>((resolve) => {
          const server = net.createServer();
          server.once('error', () => resolve(null));
          server.listen(port, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  return held.filter((server) => server !== null);
}

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('stack lifecycle', () => {
  it('applies every migration from scratch, twice in a row', async () => {
    const probe = probeConfig('migrations-probe', 1000);
    const expected = (await listMigrations()).map((m) => m.version);
    for (let round = 0; round < 2; round++) {
      await wipeData(probe);
      const db = await startDatabase(probe, () => {});
      try {
        const versions = await withDb(
          async (client) => (await client.query('select version from supabase_migrations.schema_migrations order by version')).rows.map((r) => r.version),
          probe.urls.db,
        );
        expect(versions).toEqual(expected);
      } finally {
        await db.stop();
      }
    }
  });

  it('starts while other sockets hold every other port of its range, and stops leaving no process or port behind', async () => {
    const probe = probeConfig('shutdown-probe', 2000);
    // The stack listens on its configured ports only (the web port too, when it serves the SPA);
    // every internal one is picked by the system, so no other socket can be holding it.
    const ports = Object.values(probe.ports).filter((port) => port !== probe.ports.web);
    const base = Number(probe.env.CASTLOOP_TEST_PORT_BASE);
    const holders = await holdPorts(Array.from({ length: 1000 }, (_, i) => base + i).filter((port) => !Object.values(probe.ports).includes(port)));
    try {
      const stack = await startStack(probe, { reset: true, web: 'none' });
      expect(await portIsClosed(probe.ports.gateway)).toBe(false);
      await stack.stop();
    } finally {
      await Promise.all(holders.map((holder) => new Promise((resolve) => holder.close(resolve))));
    }
    for (const port of ports) expect(await portIsClosed(port), `port ${port}`).toBe(true);
    const leftovers = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(probe.dataDir));
    expect(leftovers).toEqual([]);
  });

  it('restarts a part that dies (Postgres, PostgREST, the functions host, the worker) and serves again', async () => {
    const probe = probeConfig('restart-probe', 5000);
    // Functions of this test's own, watched as npm start watches supabase/functions: one ends its
    // host from inside (as an uncaught error does), one changes while the stack runs.
    const fixtures = await mkdtemp(path.join(os.tmpdir(), 'castloop-functions-'));
    const writeFunction = async (name: string, source: string) => {
      await mkdir(path.join(fixtures, name), { recursive: true });
      await writeFile(path.join(fixtures, name, 'index.ts'), source);
    };
    await writeFunction('exits', 'Deno.serve(() => { setTimeout(() => Deno.exit(3), 50); return new Response("bye"); });');
    await writeFunction('version', 'Deno.serve(() => new Response("one"));');
    const events: string[] = [];
    const stack = await startStack(probe, {
      reset: true,
      web: 'none',
      watch: true,
      extraFunctionsDirs: [fixtures],
      log: (line) => events.push(line),
      onFatal: (message) => events.push(`FATAL ${message}`),
    });
    const plans = () => fetch(`${probe.urls.api}/rest/v1/plans?select=id&id=eq.starter`, { headers: { apikey: probe.anonKey } });
    const health = () => fetch(`${probe.urls.api}/functions/v1/api/health`);
    const fixture = (name: string) => fetch(`${probe.urls.api}/functions/v1/${name}`, { headers: { authorization: `Bearer ${probe.anonKey}` } });
    const answer = async (check: () => Promise<Response>) => {
      try {
        const res = await check();
        return res.status === 200 ? await res.text() : res.status;
      } catch {
        return 'down';
      }
    };
    // A part is replaced once its new process is ready; under the full suite's load the functions
    // host takes up to a minute to load every function (its own ready budget is 180 s). A failure
    // prints the stack's console, which says what the supervisor did.
    onTestFailed(() => console.error(`the stack's console:\n${events.join('\n')}`));
    const comeback = { timeout: 120_000, interval: 250 };
    const servesAgain = (check: () => Promise<Response>) => expect.poll(() => answer(check), comeback).toMatch(/^[[{]/);
    const replaced = (service: SupervisedService, before: number, name: string) =>
      expect.poll(() => service.pid(), { ...comeback, message: name }).not.toBe(before);
    try {
      // A changed function is served as changed (the stack's watcher restarts the host).
      expect(await answer(() => fixture('version'))).toBe('one');
      await writeFunction('version', 'Deno.serve(() => new Response("two"));');
      await expect.poll(() => answer(() => fixture('version')), comeback).toBe('two');
      // The new host answers as soon as it listens; the supervisor adopts it at its next health
      // check (every 100 ms). Until then an exit is a start that failed (it waits for the next
      // change), not a death to recover from: on a loaded machine 'exits' once landed in between.
      const host = stack.services.functions;
      await expect.poll(() => events.includes(`${host.name} is back`), comeback).toBe(true);

      // The host ends by itself: it comes back, and the console says why.
      const before = host.pid()!;
      expect(await answer(() => fixture('exits'))).toBe('bye');
      await replaced(host, before, 'functions host after its own exit');
      await servesAgain(health);
      // The supervisor logs the exit with the part's last output, which may arrive after it has
      // already restarted the part on a loaded machine.
      await expect
        .poll(() => events.some((line) => line.startsWith(`${host.name} exited (code 3)`)), { timeout: 10_000, message: events.join('\n') })
        .toBe(true);

      // The worker runs on the project's Node, as everything npm starts does.
      const worker = stack.services.worker!;
      expect(realpathSync(`/proc/${worker.pid()}/exe`)).toBe(realpathSync(path.join(repoRoot, 'node_modules', '.bin', 'node')));

      for (const [name, service, check] of [
        ['PostgREST', stack.services.postgrest, plans],
        ['Edge Functions', stack.services.functions, health],
        ['Worker', worker, undefined],
        // Last: its clients (the worker among them) may die with it, and come back too.
        ['Postgres', stack.services.postgres, plans],
      ] as const) {
        const pid = service.pid()!;
        const comebacks = () => events.filter((line) => line.startsWith(`${service.name} is back`)).length;
        const comebacksBefore = comebacks();
        process.kill(-pid, 'SIGKILL');
        // A new process first (the old one may still answer for a moment), then it serves.
        await replaced(service, pid, name);
        if (check) await servesAgain(check);
        else await expect.poll(comebacks, { ...comeback, message: `${name} ready again` }).toBeGreaterThan(comebacksBefore);
        expect(events.some((line) => line.startsWith(service.name) && line.includes('exited')), `${name} named on the console`).toBe(true);
      }
      expect(await (await plans()).json()).toEqual([{ id: 'starter' }]);
      // The parts inside the stack's own process found the new Postgres too.
      const signIn = await fetch(`${probe.urls.api}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: probe.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }),
      });
      expect(signIn.status).toBe(400);
      const buckets = await fetch(`${probe.urls.api}/storage/v1/bucket`, { headers: { apikey: probe.serviceRoleKey, authorization: `Bearer ${probe.serviceRoleKey}` } });
      expect(buckets.status).toBe(200);
      expect(events.filter((line) => line.startsWith('FATAL'))).toEqual([]);
    } finally {
      await stack.stop();
      await rm(fixtures, { recursive: true, force: true });
    }
  }, 600_000);
});

