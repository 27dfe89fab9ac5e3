/**
 * What a failed response's body says: the `message` of our functions' JSON `{message}` ('' for
 * JSON without one), or null when the body is not JSON (empty, an HTML error page from a proxy).
 */
export function serverMessageOf(bodyText: string): string | null {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    const message = parsed && typeof parsed === 'object' ? (parsed as { message?: unknown }).message : undefined;
    return typeof message === 'string' ? message.trim() : '';
  } catch {
    return null;
  }
}

/** The spec's failed-request message: '{status}: {response text}', or the status text if empty. */
export function failedRequestMessage(status: number, statusText: string, bodyText: string): string {
  // Our functions answer `{ message }`: show the message rather than the raw JSON.
  const text = serverMessageOf(bodyText) || bodyText.trim();
  return `${status}: ${text || statusText}`;
}
