// Reading an answer from a server a subscriber names (issue 23, item 7): never more than a cap,
// whatever the server sends or announces. Web-standard streams only, so the functions (Deno)
// and the worker (Node) share it. The time limit is the request's own AbortSignal, which also
// ends a body that trickles.

/** The most the server reads of an answer from a site a subscriber names (WordPress's JSON answers are a few KB). */
export const USER_SITE_ANSWER_MAX_BYTES = 256 * 1024;

/**
 * The most the server reads of an answer from an API it is configured to call (token endpoints,
 * Google, X, LinkedIn, the automation webhook, Storage): their JSON answers are a few KB.
 */
export const PROVIDER_ANSWER_MAX_BYTES = 1024 * 1024;

/** Thrown when an answer is larger than the cap: the body is cancelled, never held whole. */
export class AnswerTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`The answer is larger than ${limitBytes} bytes`);
    this.name = 'AnswerTooLargeError';
  }
}

/** The body of `res` as text, read only up to `limitBytes`. */
export async function readCappedText(res: Response, limitBytes: number): Promise<string> {
  const announced = Number(res.headers.get('content-length') ?? '0');
  if (announced > limitBytes) {
    await res.body?.cancel().catch(() => {});
    throw new AnswerTooLargeError(limitBytes);
  }
  if (!res.body) return '';
  return await readStreamCapped(res.body, limitBytes, () => new AnswerTooLargeError(limitBytes));
}

/**
 * A body stream as text, never holding more than `limitBytes`: past the cap the rest is cancelled
 * and `tooLarge()` thrown; a read that fails throws `unreadable(cause)`. Request bodies
 * (`http-error.ts`) and answers from other servers both read through it.
 */
export async function readStreamCapped(
  body: ReadableStream<Uint8Array>,
  limitBytes: number,
  tooLarge: () => Error,
  unreadable: (cause: unknown) => Error = (cause) => (cause instanceof Error ? cause : new Error(String(cause))),
): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (cause) {
      throw unreadable(cause);
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(next.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The body of `res` as JSON, read only up to `limitBytes`; undefined when it is not JSON. */
export async function readCappedJson(res: Response, limitBytes: number): Promise<unknown> {
  const text = await readCappedText(res, limitBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The first `bytes` bytes of `body` (fewer if it is shorter); the rest is cancelled, never read. */
export async function readHead(body: ReadableStream<Uint8Array>, bytes: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const head = new Uint8Array(bytes);
  let filled = 0;
  while (filled < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    const take = value.subarray(0, bytes - filled);
    head.set(take, filled);
    filled += take.byteLength;
  }
  await reader.cancel().catch(() => {});
  return head.subarray(0, filled);
}
