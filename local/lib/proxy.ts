// Streams a request to another local server and its answer back (the mailbox's front to MailDev).
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { sendJsonError } from './http.ts';

/** Forwards `req` to `target` at `path`, streaming both bodies. */
export function proxyTo(target: { host: string; port: number }, path: string, req: IncomingMessage, res: ServerResponse): void {
  const headers = { ...req.headers, host: `${target.host}:${target.port}` };
  const upstream = http.request(
    { host: target.host, port: target.port, method: req.method, path, headers },
    (answer) => {
      // The framing is this connection's own.
      const out: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && name !== 'transfer-encoding') out[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      res.on('close', () => answer.destroy());
    },
  );
  upstream.on('error', () => {
    sendJsonError(res, 502, { message: 'An invalid response was received from the upstream server' });
  });
  req.pipe(upstream);
}
