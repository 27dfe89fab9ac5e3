// Errors every function answers with: JSON `{ message }` and a fitting status.
import { z } from 'zod';
import { readStreamCapped } from './domain-server/capped-response.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID (ids from paths and from other services are checked before any query). */
export const isUuid = (value: string) => UUID.test(value);

/** A record's id from the path, or the 404 any missing record answers (never a 400 or 500 for a bad id). */
export function pathId(value: string, missing: string): string {
  if (!isUuid(value)) throw new HttpError(404, missing);
  return value;
}

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503,
    message: string,
  ) {
    super(message);
  }
}

/** The largest JSON body any function reads. */
const maxJsonBodyBytes = 1_000_000;

/**
 * A request body as text, read only up to `limit` bytes: a larger body (announced or sent) is a
 * 413 as soon as it passes the limit, never held in memory whole.
 */
export async function readBodyText(request: Request, limit = maxJsonBodyBytes): Promise<string> {
  const tooLarge = () => new HttpError(413, `Request body is larger than ${limit} bytes`);
  const announced = Number(request.headers.get('content-length') ?? '0');
  if (announced > limit) throw tooLarge();
  if (!request.body) return '';
  // The client went away or broke off the body: its fault, and nobody may be left to answer.
  return await readStreamCapped(request.body, limit, tooLarge, () => new HttpError(400, 'The request body could not be read to its end'));
}

/**
 * Parses a JSON request body with a zod schema; any problem is a 400 with the first message.
 * Any zod 4 schema, classic or mini (the shared domain's forms use zod/mini for the SPA's size).
 */
export async function parseJsonBody<T extends z.core.$ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  const text = await readBodyText(request);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new HttpError(400, 'Request body must be valid JSON');
  }
  const result = z.safeParse(schema, body);
  if (!result.success) throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid request');
  return result.data;
}
