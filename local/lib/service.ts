// The shape every in-process part of the local stack (auth, storage) exposes, and the loopback
// server each listens on behind the gateway.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';

/** Handles a request whose URL has had the gateway prefix (`/auth/v1`, `/storage/v1`) removed. */
type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface LocalService {
  handler: NodeHandler;
  close(): Promise<void>;
}

/** Serves `service` on its own loopback port; resolves once listening, to the server. */
export function listenLocal(name: string, service: LocalService, host: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => void service.handler(req, res));
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
