// The nginx binary the gateway runs: one on the PATH, else Debian's package unpacked into a
// project-local cache (`apt-get download` needs no root), fetched on the first stack start.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../config.ts';

const run = promisify(execFile);

/** Where the unpacked package lives; `npm ci` starts without it. */
export const nginxCacheDir = path.join(repoRoot, 'node_modules', '.cache', 'castloop', 'nginx');
const cachedBinary = path.join(nginxCacheDir, 'usr', 'sbin', 'nginx');

const installHint =
  'install nginx (Debian/Ubuntu: sudo apt-get install nginx; macOS: brew install nginx) or put an nginx on the PATH';

async function onPath(): Promise<string | null> {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    try {
      await run(candidate, ['-v']);
      return candidate;
    } catch {
      // not there
    }
  }
  return null;
}

/** Shared libraries the binary needs but this machine lacks (empty where ldd is unavailable). */
async function missingLibraries(binary: string): Promise<string[]> {
  try {
    const { stdout } = await run('ldd', [binary]);
    return stdout.split('\n').filter((line) => line.includes('not found')).map((line) => line.trim().split(' ')[0]);
  } catch {
    return [];
  }
}

async function fetchDebianPackage(): Promise<void> {
  await mkdir(path.dirname(nginxCacheDir), { recursive: true });
  // Unpacked beside the cache and renamed into place, so a half-done fetch is never used.
  const work = await mkdtemp(`${nginxCacheDir}.fetch-`);
  try {
    try {
      await run('apt-get', ['download', 'nginx', 'nginx-common'], { cwd: work });
    } catch (error) {
      throw new Error(`nginx is missing and could not be fetched with apt-get download (${(error as Error).message.split('\n')[0]}): ${installHint}`, { cause: error });
    }
    const root = path.join(work, 'root');
    for (const deb of (await readdir(work)).filter((name) => name.endsWith('.deb'))) {
      await run('dpkg', ['-x', path.join(work, deb), root]);
    }
    try {
      await rename(root, nginxCacheDir);
    } catch (error) {
      // Another process (a second stack starting) got there first.
      if (!existsSync(cachedBinary)) throw error;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function locate(): Promise<string> {
  const installed = await onPath();
  if (installed) return installed;
  if (!existsSync(cachedBinary)) await fetchDebianPackage();
  const missing = await missingLibraries(cachedBinary);
  if (missing.length > 0) throw new Error(`nginx in ${nginxCacheDir} lacks shared libraries (${missing.join(', ')}): ${installHint}`);
  return cachedBinary;
}

let located: Promise<string> | undefined;

/** The nginx to run, fetched once per process when needed. */
export function nginxBinary(): Promise<string> {
  located ??= locate().catch((error: unknown) => {
    located = undefined;
    throw error;
  });
  return located;
}
