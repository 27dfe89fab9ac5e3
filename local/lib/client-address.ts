// The address of the client a request is for. The gateway decides it once per request: the
// socket's peer, or, for a request relayed by the functions host, the caller that the function
// names in `X-Forwarded-For` (as GoTrue's GOTRUE_RATE_LIMIT_HEADER behind Supabase's own proxy).
// The functions host proves it relays with a token derived from the project's JWT secret, so no
// other client can choose the address its requests are counted under.
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const relayHeader = 'x-castloop-relay';

/** The functions host's relay token (deno-host.ts derives the same value). */
export function relayToken(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('castloop functions relay').digest('hex');
}

/**
 * The gateway's own mark on what it forwards to the functions host (deno-host.ts derives the same
 * value): only a request that bears it may name its caller in X-Forwarded-For there; any other
 * caller of the functions port counts as its own address.
 */
export const gatewayHeader = 'x-castloop-gateway';

export function gatewayToken(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('castloop gateway').digest('hex');
}

const decided = new WeakMap<IncomingMessage, string>();

function peerOf(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** Called by the gateway: records (and returns) whom this request counts as. */
export function decideClientAddress(req: IncomingMessage, trustedRelayToken: string): string {
  const relayed = req.headers[relayHeader] === trustedRelayToken;
  delete req.headers[relayHeader];
  const named = relayed ? String(req.headers['x-forwarded-for'] ?? '').split(',')[0].trim() : '';
  const address = named && /^[0-9A-Fa-f:.]{2,45}$/.test(named) ? named : peerOf(req);
  decided.set(req, address);
  return address;
}

/** The client this request counts as: the gateway's decision, else the socket's peer. */
export function clientAddress(req: IncomingMessage): string {
  return decided.get(req) ?? peerOf(req);
}
