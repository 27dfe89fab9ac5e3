// Child processes of the local stack: started in their own process group so that stopping
// the stack leaves nothing behind, with a readiness probe and their last output for errors.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildService {
  name: string;
  child: ChildProcess;
  stop(): Promise<void>;
  /** Its last lines of output (why it died, when it did). */
  lastOutput(): string[];
}

interface SpawnOptions {
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

async function waitUntilReady(check: () => Promise<boolean>, timeoutMs: number, isDead: () => boolean = () => false): Promise<boolean> {
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
  return { name: options.name, child, stop, lastOutput: () => [...recent] };
}

export interface SupervisedService {
  name: string;
  /** The process running now (it changes after a restart). */
  pid(): number | undefined;
  /** Replaces the running process with a fresh one (its source files changed). */
  restart(reason: string): Promise<void>;
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  /** Told when the service dies, restarts and comes back (for `npm start`'s console). */
  log: (line: string) => void;
  /** Called once when the service cannot be brought back; the stack is then unusable. */
  onGiveUp: (message: string) => void;
  /** Restart attempts in a row before giving up (default 5; waits 0.5, 1, 2, 4, 8 s). */
  maxAttempts?: number;
  /** A restarted process that dies sooner than this (default 30 s) still counts as a failed attempt. */
  stableMs?: number;
}

/** A service left to itself: nobody restarts it (one-off servers in tests and scripts). */
export function unsupervised(service: ChildService): SupervisedService {
  return {
    name: service.name,
    pid: () => service.child.pid,
    restart: () => Promise.reject(new Error(`${service.name} is not supervised`)),
    stop: () => service.stop(),
  };
}

/** Why a process died, for the console: its exit and its last lines of output. */
function describeExit(service: ChildService, code: number | null, signal: NodeJS.Signals | null): string {
  const output = service.lastOutput().slice(-5);
  const last = output.length ? `; its last output:\n${output.map((line) => `    ${line}`).join('\n')}` : '';
  return `${service.name} exited (${signal ?? `code ${code}`}); restarting${last}`;
}

/**
 * Starts a service and restarts it, with backoff, whenever it exits without being asked to:
 * a part of the stack that dies comes back on its own, as under a process supervisor.
 */
export async function superviseService(start: () => Promise<ChildService>, options: SuperviseOptions): Promise<SupervisedService> {
  const maxAttempts = options.maxAttempts ?? 5;
  const stableMs = options.stableMs ?? 30_000;
  // Attempts in a row: a process that dies soon after coming back continues the backoff, so a
  // part that cannot stay up is given up on instead of being restarted forever.
  let attempts = 0;
  let upSince = Date.now();
  let current = await start();
  const name = current.name;
  let stopping = false;
  // Processes replaced on purpose (restart): their exit is not a death.
  const replaced = new WeakSet<ChildService>();
  // Recoveries and restarts run one at a time, in order; one that fails never blocks the next.
  let queue = Promise.resolve();
  const enqueue = (work: () => Promise<void>) =>
    (queue = queue.then(work).catch((error: unknown) => options.log(`${name}: ${(error as Error).message}`)));

  const adopt = async (service: ChildService): Promise<boolean> => {
    if (stopping) {
      await service.stop();
      return false;
    }
    current = service;
    upSince = Date.now();
    service.child.once('exit', (code, signal) => {
      if (stopping || replaced.has(service)) return;
      if (Date.now() - upSince >= stableMs) attempts = 0;
      options.log(describeExit(service, code, signal));
      void enqueue(recover);
    });
    return true;
  };

  const recover = async () => {
    while (attempts < maxAttempts && !stopping) {
      const attempt = ++attempts;
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** (attempt - 1)));
      if (stopping) return;
      try {
        if (await adopt(await start())) options.log(`${name} is back (attempt ${attempt})`);
        return;
      } catch (error) {
        options.log(`${name} restart ${attempt}/${maxAttempts} failed: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    if (!stopping) options.onGiveUp(`${name} could not be restarted after ${maxAttempts} attempts`);
  };

  let restartQueued = false;
  const replace = async (reason: string) => {
    restartQueued = false;
    if (stopping) return;
    options.log(`${name}: ${reason}; restarting`);
    replaced.add(current);
    await current.stop();
    try {
      if (await adopt(await start())) {
        attempts = 0; // New code: its deaths count afresh.
        options.log(`${name} is back`);
      }
    } catch (error) {
      // Started on purpose (a changed file): the same start fails the same way until the
      // next change, so no backoff; the next restart tries again.
      options.log(`${name} did not start: ${(error as Error).message}\nWaiting for the next change.`);
    }
  };

  await adopt(current);
  return {
    name,
    pid: () => current.child.pid,
    restart: (reason) => {
      if (restartQueued) return queue; // One restart already waits: it will load the latest files.
      restartQueued = true;
      return enqueue(() => replace(reason));
    },
    stop: async () => {
      stopping = true;
      await current.stop();
    },
  };
}
