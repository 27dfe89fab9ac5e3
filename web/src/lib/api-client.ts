// Requests to the `api` Edge Function (/api/*), as the spec's client makes them: cookies always,
// form data as is, other bodies as JSON, and failures as '{status}: {text}'. Every answer is
// parsed with the schema its caller names (the shared domain's, `@domain/*`): an answer of
// another shape is a failed request with a clear message, never a value typed by a cast.
// The one client: with `onUploadProgress` the request goes through XMLHttpRequest, the only
// browser API that reports the progress of an upload.
import { z } from 'zod/mini';
import { failedRequestMessage, serverMessageOf } from './failed-request-message';
import { currentAccessToken } from './supabase';

const texts = {
  uploadInterrupted: 'Network error: the upload did not finish',
  /** An answer of another shape than the one the SPA reads. */
  unexpectedAnswer: (method: string, path: string, problem: string) =>
    `The server's answer to ${method} ${path} was not understood (${problem}). Please reload the page or try again later.`,
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The response's status text and what its body said (failed-request-message.ts). */
    readonly response?: { statusText: string; serverMessage: string | null },
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The error of a failed response, its message in the spec's '{status}: {text}' form. */
  static fromResponse(status: number, statusText: string, bodyText: string): ApiError {
    return new ApiError(status, failedRequestMessage(status, statusText, bodyText), {
      statusText,
      serverMessage: serverMessageOf(bodyText),
    });
  }
}

/** For requests whose answer the SPA does not read (a 204, or `{success: true}`). */
export const ignoredAnswer = z.unknown();

export interface RequestOptions {
  body?: unknown;
  /** Bytes of the body sent so far, out of `total` (sent with XMLHttpRequest). */
  onUploadProgress?: (loaded: number, total: number) => void;
}

interface RawAnswer {
  status: number;
  statusText: string;
  text: string;
}

function sendWithProgress(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: XMLHttpRequestBodyInit | undefined,
  onUploadProgress: (loaded: number, total: number) => void,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onUploadProgress(event.loaded, event.total);
    xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText });
    xhr.onerror = () => reject(new ApiError(0, texts.uploadInterrupted));
    xhr.send(body ?? null);
  });
}

async function send(method: string, path: string, { body, onUploadProgress }: RequestOptions): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  const token = await currentAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: FormData | string | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (onUploadProgress) return sendWithProgress(method, path, headers, payload, onUploadProgress);
  const res = await fetch(path, { method, headers, body: payload, credentials: 'include' });
  return { status: res.status, statusText: res.statusText, text: await res.text() };
}

/** The answer to `method path`, parsed with `schema`; throws an ApiError for a failure or another shape. */
export async function apiRequest<T>(method: string, path: string, schema: z.ZodMiniType<T>, options: RequestOptions = {}): Promise<T> {
  const { status, statusText, text } = await send(method, path, options);
  if (status < 200 || status >= 300) throw ApiError.fromResponse(status, statusText, text);
  let answer: unknown;
  try {
    answer = status === 204 || text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError(status, texts.unexpectedAnswer(method, path, 'not JSON'));
  }
  const parsed = z.safeParse(schema, answer);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new ApiError(status, texts.unexpectedAnswer(method, path, `${where}${issue?.message ?? 'unexpected shape'}`));
  }
  return parsed.data;
}

/** The spec's default load: GET, and a 401 yields an empty result (null) instead of an error. */
export async function apiLoad<T>(path: string, schema: z.ZodMiniType<T>): Promise<T | null> {
  try {
    return await apiRequest('GET', path, schema);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * The text a toast shows for `error`: its message, else `fallback`. With `unreadableBody` (the
 * episode submission's toast, spec section 8), a failed response shows only the server's own
 * message: JSON without one gives `fallback`, and a body that is not JSON (empty, an HTML error
 * page) gives `unreadableBody(status, statusText)`.
 */
export function errorMessage(
  error: unknown,
  fallback: string,
  unreadableBody?: (status: number, statusText: string) => string,
): string {
  if (unreadableBody && error instanceof ApiError && error.response) {
    const { serverMessage, statusText } = error.response;
    if (serverMessage === null) return unreadableBody(error.status, statusText);
    return serverMessage || fallback;
  }
  return error instanceof Error && error.message ? error.message : fallback;
}
