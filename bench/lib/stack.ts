import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

// Every bench run gets a stack of its own: ports that nothing else listens on and a data
// directory of its own, removed when its stack stops. A stack shares nothing with another (the
// OAuth and Google sandboxes keep their grants and files in the data directory), so a bench runs
// the same beside `npm start`, `npm test` (whose tests/stack/stack.test.ts starts extra stacks at
// the test base +1000, +2000 and +5000) or another bench.

/** The ports a stack on `base` listens on (local/config.ts: base + the last three digits of each dev port). */
async function stackPorts(base: number): Promise<number[]> {
  const { loadConfig } = await import('../../local/config.ts');
  return Object.values(loadConfig('test', { CASTLOOP_TEST_PORT_BASE: String(base) }).ports);
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function takenPorts(base: number): Promise<number[]> {
  const ports = await stackPorts(base);
  const free = await Promise.all(ports.map(portFree));
  return ports.filter((_, i) => !free[i]);
}

/**
 * CASTLOOP_TEST_PORT_BASE when it is set (its ports must be free), else the first base from the
 * bench's default, 10 apart (a stack's ports are base+0, +321 to +330: two such sets never meet),
 * whose ports are all free.
 */
export async function benchPortBase(defaultPortBase: number): Promise<number> {
  const chosen = process.env.CASTLOOP_TEST_PORT_BASE;
  if (chosen) {
    const taken = await takenPorts(Number(chosen));
    if (taken.length) throw new Error(`CASTLOOP_TEST_PORT_BASE=${chosen}: port ${taken.join(', ')} is taken (another stack?); choose another base or leave it unset`);
    return Number(chosen);
  }
  for (let base = defaultPortBase; base < defaultPortBase + 500; base += 10) {
    if ((await takenPorts(base)).length === 0) return base;
  }
  throw new Error(`no free stack ports between base ${defaultPortBase} and ${defaultPortBase + 500}`);
}

/**
 * Points this process at the bench's own ports and a data directory of this run's own, under
 * CASTLOOP_DATA_DIR (default .local-data): set before the local modules load, since they read the
 * environment when imported. Answers the data directory, for the bench to remove.
 */
export async function benchEnvironment(defaultPortBase: number, name: string): Promise<string> {
  const base = await benchPortBase(defaultPortBase);
  const dataDir = path.join(process.env.CASTLOOP_DATA_DIR ?? '.local-data', `bench-${name}-${process.pid}`);
  process.env.CASTLOOP_TEST_PORT_BASE = String(base);
  process.env.CASTLOOP_DATA_DIR = dataDir;
  console.log(`bench ${name}: ports of base ${base}, data in ${dataDir}`);
  return dataDir;
}

/**
 * The test-mode configuration of one bench and the way to start its stack (on ports of its own
 * and a data directory of its own, which stopping the stack removes).
 */
export async function benchStack(defaultPortBase: number, name: string) {
  const dataDir = await benchEnvironment(defaultPortBase, name);
  const { loadConfig, repoRoot } = await import('../../local/config.ts');
  const local = await import('../../local/stack.ts');
  const startStack: typeof local.startStack = async (config, options) => {
    const stack = await local.startStack(config, options);
    return {
      ...stack,
      stop: async () => {
        await stack.stop();
        rmSync(path.resolve(repoRoot, dataDir), { recursive: true, force: true });
      },
    };
  };
  return { config: loadConfig('test'), startStack };
}

/**
 * A processing bench's stack, without a worker (the bench starts its own), its work folder, and
 * this machine's ffmpeg run quietly (the bare commands the worker is measured against).
 */
export async function processingBenchStack(defaultPortBase: number, name: string) {
  const { config, startStack } = await benchStack(defaultPortBase, name);
  const { currentMediaTools } = await import('../../worker/media/ffmpeg.ts');
  const stack = await startStack(config, { reset: true, web: 'none', worker: false });
  const work = path.join(config.dataDir, 'bench');
  mkdirSync(work, { recursive: true });
  const ffmpeg = (args: string[]) => execFileSync(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', ...args]);
  return { config, stack, work, ffmpeg };
}

/** An onboarded subscriber (growth, Drive connected, hosting ready) and their session's Bearer header. */
export async function signedInSubscriber() {
  const { createUser } = await import('../../tests/support/users.ts');
  const { tokenOf } = await import('../../tests/support/episodes.ts');
  const user = await createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true });
  return { user, bearer: { authorization: `Bearer ${await tokenOf(user)}` } };
}
