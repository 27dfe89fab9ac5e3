// Errors every function answers with: JSON `{ message }` and a fitting status.
import { z } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Parses a JSON request body with a zod schema; any problem is a 400 with the first message.
 * Any zod 4 schema, classic or mini (the shared domain's forms use zod/mini for the SPA's size).
 */
export async function parseJsonBody<T extends z.core.$ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    const text = await request.text();
    if (text.length > 1_000_000) throw new HttpError(413, 'Request body too large');
    body = text ? JSON.parse(text) : {};
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'Request body must be valid JSON');
  }
  const result = z.safeParse(schema, body);
  if (!result.success) throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid request');
  return result.data;
}
