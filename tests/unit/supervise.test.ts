// A supervised part of the local stack comes back when it dies, and the stack is told when it
// cannot (npm start then exits with the reason).
import { describe, expect, it, vi } from 'vitest';
import { spawnService, superviseService } from '../../local/lib/process.ts';

const longRunning = () =>
  spawnService({ name: 'sleeper', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], ready: async () => true });

describe('superviseService', () => {
  it('restarts a process that exits by itself, and not one that was stopped', async () => {
    const lines: string[] = [];
    let starts = 0;
    const service = await superviseService(() => (starts++, longRunning()), { log: (line) => lines.push(line), onGiveUp: (m) => lines.push(m) });
    const first = service.pid()!;
    process.kill(first, 'SIGKILL');
    await expect.poll(() => service.pid(), { timeout: 5000 }).not.toBe(first);
    expect(lines).toEqual(['sleeper exited (SIGKILL); restarting', 'sleeper is back (attempt 1)']);
    // Run the clock past every restart backoff: a stopped process is not started again.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await service.stop();
      await vi.advanceTimersByTimeAsync(60_000);
    } finally {
      vi.useRealTimers();
    }
    expect(starts).toBe(2);
    expect(lines).toHaveLength(2);
  });

  it('replaces the process on request (a changed file), without calling it a death', async () => {
    const lines: string[] = [];
    const service = await superviseService(longRunning, { log: (line) => lines.push(line), onGiveUp: (m) => lines.push(m) });
    const first = service.pid()!;
    await service.restart('index.ts changed');
    expect(service.pid()).not.toBe(first);
    expect(() => process.kill(first, 0)).toThrow();
    expect(lines).toEqual(['sleeper: index.ts changed; restarting', 'sleeper is back']);
    await service.stop();
  });

  it('gives up on a process that keeps dying soon after it comes back', async () => {
    let starts = 0;
    const gaveUp: string[] = [];
    const diesSoon = () =>
      spawnService({ name: 'flaky', command: process.execPath, args: ['-e', 'setTimeout(() => process.exit(1), 100)'], ready: async () => true });
    await superviseService(() => (starts++, diesSoon()), { log: () => {}, onGiveUp: (message) => gaveUp.push(message), maxAttempts: 2 });
    await expect.poll(() => gaveUp, { timeout: 5000 }).toEqual(['flaky could not be restarted after 2 attempts']);
    expect(starts).toBe(3);
  });

  it('gives up after the last attempt and says why', async () => {
    let starts = 0;
    const gaveUp: string[] = [];
    const service = await superviseService(
      async () => {
        if (starts++ > 0) throw new Error('port taken');
        return longRunning();
      },
      { log: () => {}, onGiveUp: (message) => gaveUp.push(message), maxAttempts: 2 },
    );
    process.kill(service.pid()!, 'SIGKILL');
    await expect.poll(() => gaveUp, { timeout: 5000 }).toEqual(['sleeper could not be restarted after 2 attempts']);
    expect(starts).toBe(3);
  });
});
