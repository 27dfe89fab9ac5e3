// Reading request bodies and writing answers, for every local service (Auth, Storage, the
// gateway, the sandbox). Each service's own headers (GoTrue's API version, the sandbox's
// no-store) come from its router (router.ts); each service's error body shape stays its own.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Requests whose body was refused part-way: their answer closes the connection. */
const abandonedBodies = new WeakSet<IncomingMessage>();

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...(abandonedBodies.has(res.req) ? { connection: 'close' } : {}),
    ...headers,
  });
  res.end(text);
}

/** An error answer; when the answer has already begun, the connection is cut instead. */
export function sendJsonError(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, body, headers);
}

/** 303 See Other by default: the answer to a form POST that should be followed by a GET. */
export function redirect(res: ServerResponse, location: string, status = 303): void {
  res.writeHead(status, { location });
  res.end();
}

/**
 * Reads a whole request body of at most `limit` bytes; null when it is larger, decided as soon as
 * the limit is passed (at once when Content-Length announces more). The rest is discarded as it
 * arrives, never kept, and an answer sent with sendJson closes the connection.
 */
export async function readBodyUpTo(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const abandon = () => {
    abandonedBodies.add(req);
    req.resume();
    return null;
  };
  if (Number(req.headers['content-length'] ?? 0) > limit) return abandon();
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData).off('end', onEnd).off('error', reject);
        resolve(abandon());
      } else chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

/** Reads and discards what is left of a request body, so an early answer reaches the client. */
export function drain(req: IncomingMessage): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
    req.once('error', () => resolve());
    req.resume();
  });
}
