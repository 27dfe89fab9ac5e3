// The address of the client a request is for. The gateway (nginx, local/gateway/gateway.ts)
// decides it once per request and passes it on as `X-Forwarded-For`: the socket's peer, or, for a
// request relayed by the functions host, the caller that the function names in `X-Forwarded-For`.
// Auth reads it as GoTrue reads GOTRUE_RATE_LIMIT_HEADER behind Supabase's own proxy. The
// functions host proves it relays with a token derived from the project's JWT secret, so no
// other client can choose the address its requests are counted under.
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const relayHeader = 'x-castloop-relay';

/** The functions host's relay token (deno-host.ts derives the same value). */
export function relayToken(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('castloop functions relay').digest('hex');
}

function peerOf(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** The client this request counts as: the address the gateway names, else the socket's peer. */
export function clientAddress(req: IncomingMessage): string {
  const named = String(req.headers['x-forwarded-for'] ?? '').split(',')[0].trim();
  return /^[0-9A-Fa-f:.]{2,45}$/.test(named) ? named : peerOf(req);
}
