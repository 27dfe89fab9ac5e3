// A worker process as a machine of its own: a cgroup (v1 cpu + cpuacct, as this machine mounts
// them) with a CPU quota, whose processes (the worker and the ffmpeg it starts) stay inside, and
// the CPU seconds they used. Needs root.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';

const PERIOD_US = 100_000;

export interface Machine {
  /** Moves a process in; the processes it starts afterwards (ffmpeg) stay in. */
  join(pid: number): void;
  cpuSeconds(): number;
  remove(): void;
}

export function machine(name: string, cores: number): Machine {
  const cpu = `/sys/fs/cgroup/cpu/${name}`;
  const acct = `/sys/fs/cgroup/cpuacct/${name}`;
  for (const dir of [cpu, acct]) if (!existsSync(dir)) mkdirSync(dir);
  writeFileSync(`${cpu}/cpu.cfs_period_us`, String(PERIOD_US));
  writeFileSync(`${cpu}/cpu.cfs_quota_us`, String(Math.round(PERIOD_US * cores)));
  writeFileSync(`${acct}/cpuacct.usage`, '0');
  return {
    join(pid) {
      writeFileSync(`${cpu}/cgroup.procs`, String(pid));
      writeFileSync(`${acct}/cgroup.procs`, String(pid));
    },
    cpuSeconds: () => Number(readFileSync(`${acct}/cpuacct.usage`, 'utf8')) / 1e9,
    remove() {
      for (const dir of [cpu, acct]) {
        try {
          rmdirSync(dir);
        } catch {
          // a process still inside (it exits with the stack)
        }
      }
    },
  };
}
