// Upload limits: a global size limit (supabase/config.toml [storage] file_size_limit, or env
// STORAGE_FILE_SIZE_LIMIT), each bucket's file_size_limit and allowed_mime_types.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { repoRoot, type StackConfig } from '../config.ts';
import type { BucketRow } from './db.ts';
import { errors } from './errors.ts';

const units: Record<string, number> = {
  b: 1,
  k: 1000, kb: 1000, kib: 1024,
  m: 1000 ** 2, mb: 1000 ** 2, mib: 1024 ** 2,
  g: 1000 ** 3, gb: 1000 ** 3, gib: 1024 ** 3,
  t: 1000 ** 4, tb: 1000 ** 4, tib: 1024 ** 4,
};

/** "3GiB" -> 3221225472, "50MB" -> 50000000, 1024 -> 1024. Returns null when unparseable. */
function parseSize(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
  if (typeof value !== 'string') return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  if (!match) return null;
  const factor = match[2] ? units[match[2].toLowerCase()] : 1;
  return factor === undefined ? null : Math.floor(Number(match[1]) * factor);
}

const fallbackLimit = 50 * 1000 ** 2; // Supabase's default when nothing is configured

/** The project-wide upload limit in bytes. */
export function globalFileSizeLimit(config: StackConfig): number {
  const fromEnv = parseSize(config.env.STORAGE_FILE_SIZE_LIMIT);
  if (fromEnv) return fromEnv;
  const file = path.join(repoRoot, 'supabase', 'config.toml');
  if (existsSync(file)) {
    try {
      const toml = parseToml(readFileSync(file, 'utf8')) as { storage?: { file_size_limit?: unknown } };
      const fromToml = parseSize(toml.storage?.file_size_limit);
      if (fromToml) return fromToml;
    } catch {
      // an unreadable config.toml leaves the default
    }
  }
  return fallbackLimit;
}

/** min(global, bucket.file_size_limit). */
export function sizeLimit(globalLimit: number, bucket: Pick<BucketRow, 'file_size_limit'>): number {
  const bucketLimit = bucket.file_size_limit;
  return bucketLimit && bucketLimit > 0 ? Math.min(globalLimit, bucketLimit) : globalLimit;
}

/** The media type without parameters, lower-cased: "Text/Plain;charset=UTF-8" -> "text/plain". */
function baseMimeType(contentType: string | undefined | null): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** Throws 415 InvalidMimeType unless the type matches an allowed type exactly or as `type/*`. */
export function checkMimeType(bucket: Pick<BucketRow, 'allowed_mime_types'>, contentType: string): void {
  const allowed = bucket.allowed_mime_types;
  if (!allowed || allowed.length === 0) return;
  const mime = baseMimeType(contentType);
  const ok = allowed.some((entry) => {
    const rule = entry.trim().toLowerCase();
    if (rule === '*/*' || rule === '*') return true;
    if (rule.endsWith('/*')) return mime.startsWith(rule.slice(0, -1));
    return baseMimeType(rule) === mime;
  });
  if (!ok) throw errors.invalidMimeType(contentType);
}

/** Parses a bucket's `file_size_limit` as given to createBucket/updateBucket (number or "20MB"). */
export function parseBucketLimit(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  const bytes = parseSize(value);
  if (bytes === null) {
    throw errors.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B');
  }
  return bytes === 0 ? null : bytes;
}
