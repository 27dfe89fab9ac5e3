// The shape every in-process part of the local stack (auth, storage) exposes to the gateway.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Handles a request whose URL has had the gateway prefix (`/auth/v1`, `/storage/v1`) removed. */
type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface LocalService {
  handler: NodeHandler;
  close(): Promise<void>;
}

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
