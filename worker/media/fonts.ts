// The caption font: the subscriber's brand font (a Google Fonts family, the profile's choice) as
// the real font files of the npm package @fontsource/<family>, at the version and with the
// integrity pinned in caption-font-packages.json (scripts/pin-caption-fonts.ts writes it), fetched
// once per family into a cache on the worker's disk; DejaVu Sans Bold (npm dejavu-fonts-ttf, a
// dependency) when the profile has no font, the family has no pinned package, or the registry
// cannot be reached. Why at run time and not as dependencies: the profile offers ~1,500 families
// (google-fonts.ts), far too many to install, and a few would not be the subscriber's font
// (docs/decisions.md). Why pinned: what the worker burns into clips is what the repository says,
// never whatever the registry calls `latest` that day (issue 39, item 9).
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { googleFontFamilies } from '../../supabase/functions/_shared/domain/google-fonts.ts';
import captionFontPackages from './caption-font-packages.json' with { type: 'json' };

export const FALLBACK_FONT = {
  family: 'DejaVu Sans',
  file: path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans-Bold.ttf'),
};

export interface CaptionFont {
  /** The family name the files declare (what the ASS style names). */
  family: string;
  /** A directory holding the font files, and the fallback for glyphs the brand font lacks (libass's fontsdir). */
  dir: string;
}

/** A whole package is refused past this (the largest CJK families run to tens of MB). */
const MAX_TARBALL_BYTES = 80 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

/** Fontsource's package name for a Google Fonts family: "Open Sans" -> "open-sans". */
export const fontsourceSlug = (family: string) => family.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The npm package holding a family's files: "Open Sans" -> "@fontsource/open-sans". */
export const fontsourcePackage = (family: string) => `@fontsource/${fontsourceSlug(family)}`;

/** Family -> the pinned version of its package and the tarball's sha512 integrity. */
export type CaptionFontPins = Record<string, { version: string; integrity: string }>;

const pinnedPackages: CaptionFontPins = captionFontPackages;

/** The files captions need: regular and bold Latin (with extended Latin), else every numbered subset (CJK). */
export function wantedFontFiles(names: string[]): string[] {
  const woff2 = names.filter((n) => /-\d+-normal\.woff2$/.test(n));
  const latin = woff2.filter((n) => /-latin(-ext)?-\d+-normal\.woff2$/.test(n));
  return latin.length ? latin : woff2;
}

export interface FontSource {
  /** npm registry base, e.g. https://registry.npmjs.org; null: never fetch (always the fallback). */
  registry: string | null;
  cacheDir: string;
  signal?: AbortSignal;
  log: (line: string) => void;
  /** The pinned packages (the repository's, unless a test gives its own). */
  pins?: CaptionFontPins;
}

async function fallbackFont(cacheDir: string): Promise<CaptionFont> {
  const dir = path.join(cacheDir, 'fallback');
  await mkdir(dir, { recursive: true });
  await symlink(FALLBACK_FONT.file, path.join(dir, path.basename(FALLBACK_FONT.file))).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return { family: FALLBACK_FONT.family, dir };
}

async function download(url: string, signal: AbortSignal): Promise<Buffer> {
  const res = await fetch(url, { signal, redirect: 'follow' });
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > MAX_TARBALL_BYTES) throw new Error(`${url} is over ${MAX_TARBALL_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Fetches the family's pinned package, checks its integrity, keeps the wanted files in `target`. */
async function fetchFamily(family: string, pin: { version: string; integrity: string }, target: string, source: FontSource & { registry: string }): Promise<void> {
  const signal = AbortSignal.any([AbortSignal.timeout(FETCH_TIMEOUT_MS), ...(source.signal ? [source.signal] : [])]);
  const name = fontsourcePackage(family);
  // The registry's tarball address: <registry>/<scope>/<name>/-/<name>-<version>.tgz.
  const tarball = `${source.registry.replace(/\/$/, '')}/${name}/-/${fontsourceSlug(family)}-${pin.version}.tgz`;
  const bytes = await download(tarball, signal);
  if (`sha512-${createHash('sha512').update(bytes).digest('base64')}` !== pin.integrity) throw new Error(`${name}@${pin.version}: the tarball does not match its pinned integrity`);

  await mkdir(source.cacheDir, { recursive: true });
  const work = await mkdtemp(path.join(source.cacheDir, '.fetch-'));
  try {
    await writeFile(path.join(work, 'package.tgz'), bytes);
    // GNU tar strips leading slashes and refuses members that climb out of the directory.
    await promisify(execFile)('tar', ['-xzf', 'package.tgz', '--no-same-owner', '--no-same-permissions', 'package/files'], { cwd: work, signal });
    const filesDir = path.join(work, 'package', 'files');
    const all = await readdir(filesDir);
    const wanted = new Set(wantedFontFiles(all));
    if (!wanted.size) throw new Error(`${name} has no WOFF2 files`);
    for (const file of all) if (!wanted.has(file)) await rm(path.join(filesDir, file), { force: true });
    await symlink(FALLBACK_FONT.file, path.join(filesDir, path.basename(FALLBACK_FONT.file)));
    await writeFile(path.join(filesDir, 'font.json'), JSON.stringify({ family, package: name, version: pin.version }));
    // Whole or not at all: another worker may have put the same family there first.
    await rename(filesDir, target).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The caption font for `family` (the profile's brand font); never fails: the fallback stands in. */
export async function captionFont(family: string | null, source: FontSource): Promise<CaptionFont> {
  const known = family ? googleFontFamilies.find((f) => f.toLowerCase() === family.trim().toLowerCase()) : undefined;
  const pin = known ? (source.pins ?? pinnedPackages)[known] : undefined;
  if (!known || !pin || !source.registry) return fallbackFont(source.cacheDir);
  // A new pin is a new cache entry: the version is part of its name.
  const target = path.join(source.cacheDir, `${fontsourceSlug(known)}@${pin.version}`);
  const cached = await readFile(path.join(target, 'font.json'), 'utf8').then(() => true, () => false);
  if (!cached) {
    try {
      await fetchFamily(known, pin, target, { ...source, registry: source.registry });
    } catch (error) {
      if (source.signal?.aborted) throw error;
      source.log(`captions in ${FALLBACK_FONT.family}: the font ${known} could not be fetched (${(error as Error).message})`);
      return fallbackFont(source.cacheDir);
    }
  }
  return { family: known, dir: target };
}
