// GoTrue's error answers. Clients that send `X-Supabase-Api-Version: 2024-01-01` (supabase-js
// does) get `{code: "<error_code>", message}`; older clients get the legacy
// `{code: <status>, error_code, msg}` shape that GoTrue's OpenAPI ErrorSchema (tests/contract/gotrue-contract.yaml) describes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJsonError } from '../lib/http.ts';

export const apiVersion = '2024-01-01';
export const apiVersionHeader = 'x-supabase-api-version';

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra top-level fields (e.g. `weak_password`). */
    readonly extra: Record<string, unknown> = {},
    /** Logged, never sent. */
    readonly internal?: string,
  ) {
    super(message);
  }
}

/** GoTrue's OAuth-style error (a malformed grant): `{error, error_description}`, always 400. */
export class OAuthError extends AuthError {
  constructor(description: string) {
    super(400, 'invalid request', description);
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const notFound = (code: string, message: string) => new AuthError(404, code, message);
export const tooManyRequests = (code: string, message: string) => new AuthError(429, code, message);

export function weakPassword(message: string, reasons: string[]): AuthError {
  return new AuthError(422, 'weak_password', message, { weak_password: { reasons } });
}

/** True when the request asks for the 2024-01-01 (or newer) error format. */
function wantsVersionedErrors(req: IncomingMessage): boolean {
  const value = req.headers[apiVersionHeader];
  const text = Array.isArray(value) ? value[0] : value;
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(time) && time >= Date.parse(`${apiVersion}T00:00:00Z`);
}

function errorBody(req: IncomingMessage, error: AuthError): Record<string, unknown> {
  if (error instanceof OAuthError) return { error: error.code, error_description: error.message };
  if (wantsVersionedErrors(req)) return { code: error.code, message: error.message, ...error.extra };
  return { code: error.status, error_code: error.code, msg: error.message, ...error.extra };
}

/**
 * Postgres refusing text it cannot store: a NUL character (22P05 in json, 22021 in text). GoTrue
 * answers these 500 ("Database error saving new user"); they are the client's input, so here a
 * 400 validation_failed. The statement's transaction is rolled back: nothing is written.
 */
const unstorableText = new Set(['22P05', '22021']);

function asAuthError(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  if (unstorableText.has((error as { code?: unknown } | null)?.code as string))
    return badRequest('validation_failed', 'Text may not contain NUL characters');
  return new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information');
}

export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  log?: (line: string) => void,
): void {
  const authError = asAuthError(error);
  if (!(error instanceof AuthError))
    log?.(`[auth] ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
  else if (authError.internal) log?.(`[auth] ${req.method} ${req.url}: ${authError.internal}`);
  // GoTrue's error answers say plain `application/json`.
  sendJsonError(res, authError.status, errorBody(req, authError), { 'content-type': 'application/json' });
}
