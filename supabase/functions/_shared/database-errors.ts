// The one mapping from a database refusal to the HTTP answer every function gives. A refusal the
// client caused (bad text, a value out of range, a conflict, a rule of ours the request broke) is
// a 4xx with words for people; anything else is the server's fault, a 500. It takes the SQLSTATE
// Postgres gives (postgres.js and PostgREST alike report it as `code`) or PostgREST's own code.
import { missingFieldsMessage } from './domain/onboarding.ts';
import { HttpError } from './http-error.ts';

/** PostgREST's error (`details`) or postgres.js's (`detail`): the same SQLSTATE, message and detail. */
export interface DatabaseError {
  code?: string;
  message: string;
  details?: string | null;
  detail?: string;
}

type Status = HttpError['status'];

/** Text Postgres cannot store: a NUL character, or a lone UTF-16 surrogate (invalid JSON to PostgREST). */
const unstorableText = new Set(['22P05', '22021', 'PGRST102']);
export const unstorableTextMessage = 'Text may not contain NUL characters or invalid Unicode';

/** Whether `text` holds what Postgres (and Storage's object names) cannot store. */
export function isUnstorableText(text: string): boolean {
  return text.includes('\u0000') || /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/**
 * Our SQL functions' own refusals: the message is a reason code, the detail the words for people.
 * Not found is always PT404 (docs/decisions.md, "One error contract").
 */
const raisedByUs = (code: string) => code === '22023' || code === 'P0001' || code === '42501' || /^PT\d{3}$/.test(code);

/**
 * The reason codes whose detail is a list of names for programs rather than words for people:
 * complete_onboarding()'s missing fields ('brandFont, logo') become the spec's messages.
 */
const detailAsWords = new Map<string, (detail: string) => string>([
  ['onboarding_incomplete', (detail) => missingFieldsMessage(detail.split(', ').filter(Boolean))],
]);

const answerable: readonly Status[] = [400, 401, 403, 404, 409, 413, 415, 422, 429];

/** The 4xx status for a client-caused error code, or null for the server's own failures. */
export function clientErrorStatus(error: DatabaseError): Status | null {
  const code = error.code ?? '';
  if (code === '42501') return error.message === 'not_authenticated' ? 401 : 403;
  // PostgREST's own "no row" for a single-object request.
  if (code === 'PGRST116') return 404;
  // PostgREST's convention: SQLSTATE PTnnn answers HTTP nnn. The API answers a missing
  // subscription (PT402) with 403, as every other "not allowed now".
  if (/^PT4\d\d$/.test(code)) {
    const status = Number(code.slice(2)) as Status;
    return answerable.includes(status) ? status : 403;
  }
  if (code === '23505' || code === '23P01') return 409;
  // Class 22 (data exception: bad text, out-of-range or malformed values), class 23 (a constraint
  // the values break), a plain `raise exception`, and PostgREST's request errors (PGRST1xx).
  if (code.startsWith('22') || code.startsWith('23') || code === 'P0001' || /^PGRST1\d\d$/.test(code)) return 400;
  return null;
}

/**
 * `error` as the HttpError a route throws. `action` says what failed ("Could not save the
 * profile"); it prefixes every answer but our own SQL refusals, whose detail already says it.
 */
export function databaseError(error: DatabaseError, action: string): HttpError {
  const status = clientErrorStatus(error);
  if (status === null) return new HttpError(500, `${action}: ${error.message}`);
  if (status === 401) return new HttpError(401, 'Unauthorized');
  const code = error.code ?? '';
  if (unstorableText.has(code)) return new HttpError(status, `${action}: ${unstorableTextMessage}`);
  if (raisedByUs(code)) {
    const detail = error.details || error.detail || '';
    return new HttpError(status, (detailAsWords.get(error.message)?.(detail) ?? detail) || error.message);
  }
  return new HttpError(status, `${action}: ${error.message}`);
}
