// The worker image's health check, run for real: a worker started the way the stack and the image
// start one (node --import tsx worker/main.ts) with WORKER_HEALTH_PORT answers GET /health, and
// the Dockerfile's own HEALTHCHECK command passes against it, then fails once it stops.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import type { ChildService } from '../../local/lib/process.ts';
import { startWorkerProcess } from '../../local/worker.ts';
import { config } from '../support/stack.ts';

/** The HEALTHCHECK's command, as the image runs it (exec form). */
function healthCommand(): string[] {
  const dockerfile = readFileSync(path.join(import.meta.dirname, '..', '..', 'worker', 'Dockerfile'), 'utf8').replace(
    /\\\n/g,
    ' ',
  );
  const match = /^HEALTHCHECK\b.*?\bCMD\s+(\[.*\])\s*$/m.exec(dockerfile);
  if (!match) throw new Error('worker/Dockerfile has no HEALTHCHECK ... CMD [...]');
  return JSON.parse(match[1]) as string[];
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The health command's exit code with the worker's port in its environment. */
async function runHealthCheck(port: number): Promise<number> {
  const [command, ...args] = healthCommand();
  try {
    await promisify(execFile)(command === 'node' ? process.execPath : command, args, {
      env: { ...process.env, WORKER_HEALTH_PORT: String(port) },
      timeout: 10_000,
    });
    return 0;
  } catch (error) {
    return (error as { code?: number }).code ?? 1;
  }
}

let worker: ChildService | undefined;
afterAll(async () => worker?.stop());

it("answers GET /health while it reaches the database, and the image's HEALTHCHECK passes, then fails once it stops", async () => {
  const port = await freePort();
  worker = await startWorkerProcess(config, undefined, { WORKER_HEALTH_PORT: String(port) });
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ status: 'ok', worker: expect.stringMatching(/\/\d+$/) });
  expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  expect(await runHealthCheck(port)).toBe(0);

  await worker.stop();
  worker = undefined;
  expect(await runHealthCheck(port)).toBe(1);
}, 90_000);
