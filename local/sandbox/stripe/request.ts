// The request side of the /v1 API shared by every resource: Stripe's error answers, parameter
// parsing and validation (form-encoded, nested), list pagination and `expand`.
import type { FormObject, FormValue } from '../form.ts';
import type { StripeSandbox } from './sandbox.ts';
import { list, type Json, type Metadata } from './primitives.ts';

export interface StripeErrorBody {
  type: 'invalid_request_error' | 'api_error' | 'idempotency_error' | 'card_error';
  message: string;
  code?: string;
  param?: string;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

export function fail(status: number, message: string, code?: string, param?: string): never {
  throw new StripeApiError(status, { type: 'invalid_request_error', message, code, param });
}

/**
 * A missing resource: 404 when it is the one in the URL, 400 when a parameter names it (as
 * Stripe answers a checkout with an unknown price).
 */
export function noSuch(kind: string, id: string, param?: string): never {
  fail(param ? 400 : 404, `No such ${kind}: '${id}'`, 'resource_missing', param ?? 'id');
}

// --- parameter helpers ----------------------------------------------------------------------

export function str(params: FormObject, key: string, required = false): string | null {
  const v = params[key];
  if (v === undefined) {
    if (required) fail(400, `Missing required param: ${key}.`, 'parameter_missing', key);
    return null;
  }
  if (typeof v !== 'string') fail(400, `Invalid string: ${JSON.stringify(v)}`, 'parameter_invalid_string', key);
  if (required && v === '')
    fail(
      400,
      `You passed an empty string for '${key}'. We assume empty values are an attempt to unset a parameter; however '${key}' cannot be unset. You should remove '${key}' from your request or supply a non-empty value.`,
      'parameter_invalid_empty',
      key,
    );
  return v;
}

export function int(value: FormValue | undefined, param: string, min: number, max: number): number | null {
  if (value === undefined) return null;
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n))
    fail(
      400,
      `Invalid integer: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
      'parameter_invalid_integer',
      param,
    );
  if (n < min || n > max)
    fail(400, `Invalid ${param}: must be between ${min} and ${max}`, 'parameter_invalid_integer', param);
  return n;
}

export function bool(params: FormObject, key: string): boolean | null {
  const v = params[key];
  if (v === undefined) return null;
  if (v === 'true') return true;
  if (v === 'false') return false;
  fail(400, `Invalid boolean: ${typeof v === 'string' ? v : JSON.stringify(v)}`, 'parameter_invalid_boolean', key);
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function email(params: FormObject, key: string): string | null {
  const v = str(params, key);
  if (v === null || v === '') return v === '' ? null : v;
  if (!emailPattern.test(v)) fail(400, `Invalid email address: ${v}`, 'email_invalid', key);
  return v;
}

/** Validates a `metadata` hash. '' unsets all keys; a key with '' unsets that key. */
export function metadataParam(value: FormValue | undefined, param: string): Metadata | '' | undefined {
  if (value === undefined) return undefined;
  if (value === '') return '';
  if (typeof value !== 'object' || Array.isArray(value)) fail(400, `Invalid object`, 'parameter_invalid_object', param);
  const out: Metadata = {};
  const entries = Object.entries(value);
  if (entries.length > 50) fail(400, 'Metadata can have at most 50 keys.', 'parameter_invalid_object', param);
  for (const [k, v] of entries) {
    if (typeof v !== 'string')
      fail(400, `Invalid string: ${JSON.stringify(v)}`, 'parameter_invalid_string', `${param}[${k}]`);
    if (k.length > 40)
      fail(
        400,
        `Metadata keys can have up to 40 characters; "${k}" has ${k.length}.`,
        'parameter_invalid_string',
        `${param}[${k}]`,
      );
    if (v.length > 500)
      fail(400, `Metadata values can have up to 500 characters.`, 'parameter_invalid_string', `${param}[${k}]`);
    out[k] = v;
  }
  return out;
}

export function mergeMetadata(current: Metadata, update: Metadata | '' | undefined): Metadata {
  if (update === undefined) return current;
  if (update === '') return {};
  const next = { ...current };
  for (const [k, v] of Object.entries(update)) {
    if (v === '') delete next[k];
    else next[k] = v;
  }
  return next;
}

export function checkAllowed(params: FormObject, allowed: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (key !== 'expand' && !allowed.includes(key))
      fail(400, `Received unknown parameter: ${key}`, 'parameter_unknown', key);
  }
}

export function expandPaths(params: FormObject): string[] {
  const v = params.expand;
  if (v === undefined || v === '') return [];
  const values = Array.isArray(v) ? v : typeof v === 'object' ? Object.values(v) : [v];
  return values.filter((x): x is string => typeof x === 'string');
}

// --- expand ----------------------------------------------------------------------------------

function expandValue(sandbox: StripeSandbox, value: unknown, segments: string[]): unknown {
  let current = value;
  if (typeof current === 'string') {
    const found = sandbox.state.find(current);
    if (!found) return value;
    current = structuredClone(found);
  }
  if (segments.length === 0 || current === null || typeof current !== 'object') return current;
  const [head, ...rest] = segments;
  const obj = current as Json;
  if (Array.isArray(obj[head])) {
    obj[head] = (obj[head] as unknown[]).map((item) =>
      expandValue(sandbox, item, rest),
    );
  } else if (head in obj) {
    obj[head] = expandValue(sandbox, obj[head], rest);
  }
  return obj;
}

/** Expands ids into objects along each dotted path; `extra` adds fields that exist only expanded. */
export function applyExpand(
  sandbox: StripeSandbox,
  object: Json,
  paths: string[],
  extra: (object: Json, field: string) => unknown = () => undefined,
): Json {
  let out = structuredClone(object);
  for (const p of paths) {
    const segments = p.split('.');
    const added = extra(out, segments[0]);
    if (added !== undefined) out[segments[0]] = added;
    out = expandValue(sandbox, out, segments) as Json;
  }
  return out;
}

// --- lists -------------------------------------------------------------------------------------

export const listParams = ['limit', 'starting_after', 'ending_before'] as const;

/** Newest first by `created`, or by `timeOf` for objects without it (an invoice item's `date`). */
export function paginate<T extends { id: string }>(
  items: T[],
  params: FormObject,
  url: string,
  timeOf: (item: T) => number = (item) => (item as T & { created: number }).created,
): Json {
  const limit = int(params.limit, 'limit', 1, 100) ?? 10;
  const sorted = [...items].sort((a, b) => timeOf(b) - timeOf(a) || (a.id < b.id ? 1 : -1));
  let start = 0;
  let end = sorted.length;
  const after = str(params, 'starting_after');
  const before = str(params, 'ending_before');
  if (after) {
    const i = sorted.findIndex((x) => x.id === after);
    if (i === -1) fail(400, `Invalid starting_after: '${after}'`, 'resource_missing', 'starting_after');
    start = i + 1;
  } else if (before) {
    const i = sorted.findIndex((x) => x.id === before);
    if (i === -1) fail(400, `Invalid ending_before: '${before}'`, 'resource_missing', 'ending_before');
    end = i;
    start = Math.max(0, end - limit);
  }
  const page = sorted.slice(start, Math.min(end, start + limit));
  return list(url, page, start + page.length < end);
}

/** One /v1 route of a resource module; `ids` are the path's captured ids. */
export interface Route {
  method: string;
  pattern: RegExp;
  handler: (sandbox: StripeSandbox, params: FormObject, ids: string[]) => Json | Promise<Json>;
}

/** Validates an http(s) URL parameter. */
export function validUrl(params: FormObject, key: string, required: boolean): string | null {
  const v = str(params, key, required);
  if (v === null || v === '') return null;
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    fail(400, `Not a valid URL`, 'url_invalid', key);
  }
  return v;
}
