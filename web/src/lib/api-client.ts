// Requests to the `api` Edge Function (/api/*), as the spec's client makes them: cookies always,
// form data as is, other bodies as JSON, and failures as '{status}: {text}'.
import { failedRequestMessage, serverMessageOf } from './failed-request-message';
import { currentAccessToken } from './supabase';

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

export async function apiRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  const token = await currentAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(path, { method, headers, body: payload, credentials: 'include' });
  if (!res.ok) throw ApiError.fromResponse(res.status, res.statusText, await res.text());
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** The spec's default load: GET, and a 401 yields an empty result (null) instead of an error. */
export async function apiLoad<T>(path: string): Promise<T | null> {
  try {
    return await apiRequest<T>('GET', path);
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
