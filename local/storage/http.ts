// Small HTTP helpers for the Storage routes.
import type { IncomingMessage } from 'node:http';
import { readBodyUpTo } from '../lib/http.ts';
import { errors } from './errors.ts';

const maxJsonBytes = 1024 * 1024;

export async function readJson<T = Record<string, unknown>>(req: IncomingMessage): Promise<T> {
  const body = await readBodyUpTo(req, maxJsonBytes);
  if (!body) throw errors.entityTooLarge();
  const text = body.toString('utf8').trim();
  if (!text) return {} as T;
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object') throw new Error('not an object');
    return value as T;
  } catch {
    throw errors.invalidRequest('Body is not valid JSON');
  }
}

/** Object names as Supabase Storage accepts them. */
const validKey = /^(\w|\/|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?|[\u00A0-\uFFFF])*$/u;

export function checkKey(name: string): void {
  if (!name || name.length > 1024 || !validKey.test(name) || name.startsWith('/') || name.split('/').some((part) => part === '.' || part === '..')) {
    throw errors.invalidKey(name);
  }
}

/** Bucket names: letters, digits, and a few separators, as Supabase Storage. */
export function checkBucketName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !/^(\w|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)+$/.test(name) || name.length > 100) {
    throw errors.invalidBucketName();
  }
}
