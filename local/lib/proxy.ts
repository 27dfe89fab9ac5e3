// Streams a request to another local server and its answer back, never buffering bodies.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { sendJsonError } from './http.ts';

/** Forwards `req` to `target` at `path`. Headers the caller already set on `res` (CORS) win. */
export function proxyTo(target: { host: string; port: number }, path: string, req: IncomingMessage, res: ServerResponse): void {
  const headers = { ...req.headers, host: `${target.host}:${target.port}` };
  const upstream = http.request(
    { host: target.host, port: target.port, method: req.method, path, headers },
    (answer) => {
      // Keep headers the caller set (the gateway's CORS); copy everything else.
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined || res.hasHeader(name)) continue;
        res.setHeader(name, value);
      }
      res.writeHead(answer.statusCode ?? 502);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    sendJsonError(res, 502, { message: 'An invalid response was received from the upstream server' });
  });
  req.pipe(upstream);
}
