// Memory of a process and all its descendants, read from /proc (Linux), for the benchmarks.
import { readdirSync, readFileSync } from 'node:fs';

function childrenOf(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(parent) ?? [];
      list.push(Number(entry));
      children.set(parent, list);
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

/** A /proc file's `<field>: <n> kB` in bytes (0 once the process has ended). */
function kbField(file: string, field: string): number {
  try {
    const text = readFileSync(file, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Resident memory: every page the process maps, shared or not. */
const rssBytes = (pid: number) => kbField(`/proc/${pid}/status`, 'VmRSS');
/**
 * Proportional memory: each shared page divided among the processes that map it. Summed over a
 * tree it is what the tree takes from the machine; summed RSS counts Postgres's shared memory
 * once per connection (a backend shows 15-30 MiB resident, 2-6 MiB of its own).
 */
const pssBytes = (pid: number) => kbField(`/proc/${pid}/smaps_rollup`, 'Pss');

function treeSum(root: number, bytesOf: (pid: number) => number): number {
  const children = childrenOf();
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += bytesOf(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Resident memory of `root` and every descendant, in bytes. */
export const treeRssBytes = (root: number) => treeSum(root, rssBytes);
/** Proportional memory of `root` and every descendant, in bytes: what the tree takes from the machine. */
export const treePssBytes = (root: number) => treeSum(root, pssBytes);

/** Samples the tree's memory (resident, or `measure`) every `intervalMs` until stopped; returns the peak. */
export function samplePeak(root: number, intervalMs = 200, measure: (root: number) => number = treeRssBytes): { stop(): number } {
  let peak = measure(root);
  const timer = setInterval(() => {
    peak = Math.max(peak, measure(root));
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, measure(root));
    },
  };
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
