// Request parsing shared by every route: bounded JSON bodies, bearer tokens, the client address.
import type { IncomingMessage } from 'node:http';
import { clientAddress } from '../lib/client-address.ts';
import { readBodyUpTo } from '../lib/http.ts';
import { AuthError, badRequest } from './errors.ts';

/** Bodies above this are refused before parsing. */
const maxBodyBytes = 1024 * 1024;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const body = await readBodyUpTo(req, maxBodyBytes);
  if (!body) throw new AuthError(400, 'validation_failed', `Request body is larger than ${maxBodyBytes} bytes`);
  return body;
}

/** Reads a JSON object body; an empty body counts as `{}`, as in GoTrue. */
export async function readJson(req: IncomingMessage): Promise<JsonObject> {
  const raw = await readBody(req);
  const text = raw.toString('utf8').trim();
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw badRequest('bad_json', 'Could not parse request body as JSON: expected a JSON object');
  return wellFormed(parsed) as JsonObject;
}

/**
 * As GoTrue's JSON decoding (Go's encoding/json): a lone UTF-16 surrogate in a string or a key
 * becomes U+FFFD, so it never reaches Postgres, which refuses it in json.
 */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const toWellFormed = (text: string) => text.replace(loneSurrogate, '\uFFFD');

function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return toWellFormed(value);
  if (Array.isArray(value)) return value.map(wellFormed);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [toWellFormed(key), wellFormed(item)]));
  return value;
}

/** An optional string field; anything else present is a 400. */
export function optionalString(body: JsonObject, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw badRequest('bad_json', `Could not parse request body as JSON: "${key}" must be a string`);
  return value;
}

export function optionalObject(body: JsonObject, key: string): JsonObject | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value))
    throw badRequest('bad_json', `Could not parse request body as JSON: "${key}" must be an object`);
  return value;
}

export function optionalBoolean(body: JsonObject, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw badRequest('bad_json', `Could not parse request body as JSON: "${key}" must be a boolean`);
  return value;
}

/** The bearer token of the request, or null when there is no Authorization header. */
export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** The client this request counts as for rate limits and sessions (see local/lib/client-address.ts). */
export function clientIp(req: IncomingMessage): string {
  return clientAddress(req);
}

export function userAgent(req: IncomingMessage): string | null {
  const value = req.headers['user-agent'];
  return value ? value.slice(0, 1000) : null;
}
