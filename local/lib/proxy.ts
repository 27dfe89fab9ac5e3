// Streams a request to another local server and its answer back, never buffering bodies.
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { sendJsonError } from './http.ts';

/**
 * Sends `answer`'s body to `res` with backpressure. A chunked answer (PostgREST's) has each chunk
 * held back until the end of the event-loop turn, so one that arrives whole leaves in one write
 * with its end instead of a second write for the last chunk; a streamed one is not delayed past
 * the turn its chunk arrived in. An answer of known length goes out as it comes.
 */
function relayBody(answer: IncomingMessage, res: ServerResponse): void {
  if (answer.headers['content-length'] !== undefined) return void answer.pipe(res);
  let held: Buffer | null = null;
  let flushing: NodeJS.Immediate | null = null;
  const send = (chunk: Buffer) => {
    if (res.write(chunk)) return;
    answer.pause();
    res.once('drain', () => answer.resume());
  };
  const flush = () => {
    flushing = null;
    const chunk = held;
    held = null;
    if (chunk) send(chunk);
  };
  answer.on('data', (chunk: Buffer) => {
    if (held) send(held);
    held = chunk;
    flushing ??= setImmediate(flush);
  });
  answer.on('end', () => {
    if (flushing) clearImmediate(flushing);
    flushing = null;
    const last = held;
    held = null;
    res.end(last ?? undefined);
  });
  answer.on('error', () => res.destroy());
  res.on('close', () => answer.destroy());
}

/** Headers about one connection (RFC 9110 7.6.1), never forwarded to the next. */
const hopByHopHeaders = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade'];

/**
 * Forwards `req` to `target` at `path`. Headers the caller already set on `res` (CORS) win.
 * An answer given before the whole request was sent (a 413 at the body limit) reaches the client
 * whole: the upstream's early close is not an error then, and the rest of the client's body is
 * read and dropped here, so its connection stays usable for the next request.
 */
export function proxyTo(
  target: { host: string; port: number },
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  extraHeaders: Record<string, string> = {},
): void {
  const headers: OutgoingHttpHeaders = { ...req.headers, ...extraHeaders, host: `${target.host}:${target.port}` };
  // This connection's own: a client's `Connection: close` must not make the upstream close early.
  for (const name of hopByHopHeaders) delete headers[name];
  let answered = false;
  // The upstream has answered but the body is not all sent: its connection cannot carry another
  // request, so it is closed; the client's connection stays, its remaining body read and dropped.
  const dropRestOfRequest = () => {
    req.unpipe(upstream);
    req.resume();
    upstream.destroy();
  };
  const upstream = http.request(
    { host: target.host, port: target.port, method: req.method, path, headers },
    (answer) => {
      answered = true;
      // Keep headers the caller set (the gateway's CORS); copy everything else but the framing,
      // which is this connection's own (an answer that arrives whole goes out with its length).
      const out: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined || name === 'transfer-encoding' || hopByHopHeaders.includes(name) || res.hasHeader(name)) continue;
        out[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, out);
      relayBody(answer, res);
      answer.once('end', () => {
        if (!req.readableEnded) dropRestOfRequest();
      });
    },
  );
  upstream.on('error', () => {
    // Whatever the upstream did (closed after answering early, or failed), what is left of the
    // client's body is read and dropped, so the client gets an answer and can send the next.
    dropRestOfRequest();
    if (!answered) sendJsonError(res, 502, { message: 'An invalid response was received from the upstream server' });
  });
  // A client that goes away before its request is all sent takes the upstream request with it:
  // the upstream would otherwise wait for the rest of the body for ever, holding its connection.
  req.on('close', () => {
    if (!req.complete) upstream.destroy();
  });
  // A request without a body is sent at once; one with a body is streamed as it arrives.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    req.resume();
    upstream.end();
  } else req.pipe(upstream);
}
