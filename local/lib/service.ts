// The shape every in-process part of the local stack (auth, storage) exposes to the gateway.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Handles a request whose URL has had the gateway prefix (`/auth/v1`, `/storage/v1`) removed. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface LocalService {
  handler: NodeHandler;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/**
 * Reads a whole request body of at most `limit` bytes; null when it is larger. A larger body is
 * still drained, so the client can read the error answer instead of a reset connection.
 */
export async function readBodyUpTo(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? null : Buffer.concat(chunks);
}
