// Requests to the `api` Edge Function (/api/*), as the spec's client makes them: cookies always,
// form data as is, other bodies as JSON, and failures as '{status}: {text}'.
import { failedRequestMessage } from './failed-request-message';
import { currentAccessToken } from './supabase';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
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
  if (!res.ok) throw new ApiError(res.status, failedRequestMessage(res.status, res.statusText, await res.text()));
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

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
