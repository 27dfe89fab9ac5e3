/** The spec's failed-request message: '{status}: {response text}', or the status text if empty. */
export function failedRequestMessage(status: number, statusText: string, bodyText: string): string {
  let text = bodyText.trim();
  // Our functions answer `{ message }`: show the message rather than the raw JSON.
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') {
      text = (parsed as { message: string }).message;
    }
  } catch {
    // not JSON: keep the text
  }
  return `${status}: ${text || statusText}`;
}
