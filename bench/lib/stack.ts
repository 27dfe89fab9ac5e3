import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

// The test-mode configuration of one bench and the way to start its stack: its own ports
// (CASTLOOP_TEST_PORT_BASE, else the bench's default) and its own data dir, so benches never
// meet a running `npm start` or each other. The environment is set before the local modules
// load, since they read it when imported.
export async function benchStack(defaultPortBase: number, name: string) {
  process.env.CASTLOOP_TEST_PORT_BASE ??= String(defaultPortBase);
  process.env.CASTLOOP_DATA_DIR ??= `.local-data/bench-${name}`;
  const { loadConfig } = await import('../../local/config.ts');
  const { startStack } = await import('../../local/stack.ts');
  return { config: loadConfig('test'), startStack };
}

/**
 * A processing bench's stack, without a worker (the bench starts its own), its work folder, and
 * this machine's ffmpeg run quietly (the minimal commands the worker is measured against).
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
