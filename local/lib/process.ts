// Child processes of the local stack: started in their own process group so that stopping
// the stack leaves nothing behind, with a readiness probe and their last output for errors.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildService {
  name: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Polled until ready: an HTTP URL (any status below 500 counts) or a check of our own. */
  ready: string | (() => Promise<boolean>);
  /** Run as this user (e.g. Postgres, which refuses to run as root). */
  uid?: number;
  gid?: number;
  /** How to ask the process to stop (default SIGTERM; Postgres: SIGINT, its fast shutdown). */
  stopSignal?: NodeJS.Signals;
  readyTimeoutMs?: number;
  /** Receives every output line (for `npm start`'s log). */
  onLine?: (line: string) => void;
}

async function isUp(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return res.status < 500;
  } catch {
    return false;
  }
}

export async function waitUntilReady(check: () => Promise<boolean>, timeoutMs: number, isDead: () => boolean = () => false): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (isDead()) return false;
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

// Safety net: if this process exits without stopping its children, take them along.
const liveChildren = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveChildren) killGroup(child, 'SIGKILL');
});

export async function spawnService(options: SpawnOptions): Promise<ChildService> {
  const recent: string[] = [];
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    uid: options.uid,
    gid: options.gid,
    detached: true, // own process group: we kill the whole group on stop
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  let exited = false;
  let spawnError: Error | undefined;
  child.on('error', (error) => {
    spawnError = error;
    exited = true;
  });
  child.on('exit', () => {
    exited = true;
    liveChildren.delete(child);
  });
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      recent.push(line);
      if (recent.length > 30) recent.shift();
      options.onLine?.(line);
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const stop = async () => {
    if (exited) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (options.stopSignal) child.kill(options.stopSignal);
    else killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  };

  const { ready: readiness } = options;
  const check = typeof readiness === 'string' ? () => isUp(readiness) : readiness;
  const ready = await waitUntilReady(check, options.readyTimeoutMs ?? 30_000, () => exited);
  if (!ready) {
    await stop();
    const why = spawnError ? `${spawnError.message}` : exited ? 'it exited' : 'it did not answer in time';
    throw new Error(`${options.name} did not come up (${why}). Last output:\n${recent.join('\n')}`);
  }
  return { name: options.name, child, stop };
}
