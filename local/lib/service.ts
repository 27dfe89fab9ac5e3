// The shape every in-process part of the local stack (auth, storage) exposes, and the loopback
// server each listens on behind the gateway.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';

/** Handles a request whose URL has had the gateway prefix (`/auth/v1`, `/storage/v1`) removed. */
type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface LocalService {
  handler: NodeHandler;
  close(): Promise<void>;
}

/**
 * An answer given before the request's body has all arrived (a refusal: too large, wrong type)
 * leaves the connection open and the rest of the body read and dropped, instead of closing with
 * the body unread: that close resets the connection, and the gateway (nginx), still sending the
 * body, could lose the answer and give the client a 502 instead.
 */
function keepReadingAfterEarlyAnswer(req: IncomingMessage, res: ServerResponse): void {
  const hasBody = (req.headers['content-length'] ?? '0') !== '0' || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!req.readableEnded) {
      req.resume();
      res.removeHeader('connection');
      for (const arg of args) {
        if (arg && typeof arg === 'object' && !Array.isArray(arg)) {
          for (const key of Object.keys(arg)) if (key.toLowerCase() === 'connection') delete (arg as Record<string, unknown>)[key];
        }
      }
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/** Serves `service` on its own loopback port; resolves once listening, to the server. */
export function listenLocal(name: string, service: LocalService, host: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    keepReadingAfterEarlyAnswer(req, res);
    void service.handler(req, res);
  });
  server.requestTimeout = 0; // long uploads
  // Longer than the gateway keeps an idle upstream connection, so the gateway closes it first.
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`${name} could not listen on ${host}:${port}: ${error.code === 'EADDRINUSE' ? 'port taken' : error.message}`)),
    );
    server.listen(port, host, () => resolve(server));
  });
}
