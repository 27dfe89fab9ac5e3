// Runs inside Deno: hosts every function of supabase/functions/ in one process, the way
// `supabase functions serve` exposes them. Each function's `Deno.serve` handler is captured
// while its index.ts is imported, then requests for `/<name>/...` are routed to it.
// Started by local/functions/functions.ts; not part of any deployed function.

type Handler = (request: Request, info: unknown) => Response | Promise<Response>;

// The project's functions, then (tests only) fixture functions, which default to verify_jwt.
const functionsDirs: string[] = JSON.parse(Deno.env.get('CASTLOOP_FUNCTIONS_DIRS') ?? '[]');
const port = Number(Deno.env.get('CASTLOOP_FUNCTIONS_PORT'));
const hostname = Deno.env.get('CASTLOOP_FUNCTIONS_HOST') ?? '127.0.0.1';
const jwtSecret = Deno.env.get('SUPABASE_JWT_SECRET') ?? '';
const verifyJwtByName: Record<string, boolean> = JSON.parse(Deno.env.get('CASTLOOP_VERIFY_JWT') ?? '{}');

// Requests the functions make to the gateway carry the relay token (local/lib/client-address.ts),
// so the gateway believes the caller address a function names in X-Forwarded-For.
const gatewayOrigin = new URL(Deno.env.get('SUPABASE_URL') ?? 'http://127.0.0.1:54321').origin;
const relayKey = await crypto.subtle.importKey('raw', new TextEncoder().encode(jwtSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
const relayToken = [...new Uint8Array(await crypto.subtle.sign('HMAC', relayKey, new TextEncoder().encode('castloop functions relay')))]
  .map((byte) => byte.toString(16).padStart(2, '0'))
  .join('');
// What the gateway adds to every request it forwards (local/lib/client-address.ts): only such a
// request may name its caller in X-Forwarded-For. A client calling this port directly counts as
// its own address, so it cannot have a function relay an address it chose to Auth.
const gatewayMark = [
  ...new Uint8Array(await crypto.subtle.sign('HMAC', relayKey, new TextEncoder().encode('castloop gateway'))),
]
  .map((byte) => byte.toString(16).padStart(2, '0'))
  .join('');
const forwardingHeaders = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip'];

function asForwardedByGateway(request: Request, peer: string): Request {
  if (request.headers.get('x-castloop-gateway') === gatewayMark) return request;
  const headers = new Headers(request.headers);
  for (const name of forwardingHeaders) headers.delete(name);
  headers.set('x-forwarded-for', peer);
  return new Request(request, { headers });
}

// Every function shares this process: an error a function leaves unhandled is logged and the
// host goes on serving, as the platform would start a fresh worker. (Functions must still handle
// their own; see supabase/functions/_shared/serve.ts.)
globalThis.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  console.error('a function left a rejection unhandled:', event.reason);
});
globalThis.addEventListener('error', (event) => {
  event.preventDefault();
  console.error('a function threw outside any request:', event.error);
});

const realFetch = globalThis.fetch;
globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  if (new URL(request.url).origin === gatewayOrigin) request.headers.set('x-castloop-relay', relayToken);
  return realFetch(request);
};

const handlers = new Map<string, Handler>();
const loadErrors = new Map<string, string>();
const realServe = Deno.serve;

function captureHandler(...args: unknown[]): unknown {
  const [first, second] = args;
  const handler = (typeof first === 'function' ? first : typeof second === 'function' ? second : (first as { handler?: Handler })?.handler) as Handler | undefined;
  if (handler) captured = handler;
  // Functions never use the returned server; give them something that behaves like one.
  return { finished: new Promise(() => {}), shutdown: async () => {}, ref() {}, unref() {}, addr: { hostname, port, transport: 'tcp' } };
}
let captured: Handler | undefined;

Object.defineProperty(Deno, 'serve', { value: captureHandler, configurable: true, writable: true });
for (const functionsDir of functionsDirs) for await (const entry of Deno.readDir(functionsDir)) {
  if (!entry.isDirectory || entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
  const indexFile = `${functionsDir}/${entry.name}/index.ts`;
  try {
    await Deno.stat(indexFile);
  } catch {
    continue;
  }
  captured = undefined;
  try {
    await import(`file://${indexFile}`);
    if (captured) handlers.set(entry.name, captured);
    else loadErrors.set(entry.name, 'index.ts did not call Deno.serve');
  } catch (error) {
    loadErrors.set(entry.name, error instanceof Error ? error.message : String(error));
    console.error(`function ${entry.name} failed to load: ${loadErrors.get(entry.name)}`);
  }
}
Object.defineProperty(Deno, 'serve', { value: realServe, configurable: true, writable: true });

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

const hmacKey = await crypto.subtle.importKey('raw', new TextEncoder().encode(jwtSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
// Auth's public signing keys (its JWKS), by key id.
const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const publicKeys = new Map<string, CryptoKey>();
for (const jwk of (JSON.parse(Deno.env.get('CASTLOOP_JWKS') ?? '{"keys":[]}') as { keys: (JsonWebKey & { kid: string })[] }).keys)
  publicKeys.set(jwk.kid, await crypto.subtle.importKey('jwk', jwk, ecdsa, false, ['verify']));

/** As the Supabase edge runtime: a valid JWT, ES256 from Auth's JWKS or HS256 with the legacy secret, not expired. */
async function isValidJwt(token: string): Promise<boolean> {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  try {
    const header = JSON.parse(new TextDecoder().decode(base64UrlDecode(parts[0])));
    const publicKey = header.alg === 'ES256' ? publicKeys.get(header.kid) : undefined;
    if (header.alg !== 'HS256' && !publicKey) return false;
    const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`);
    const signature = base64UrlDecode(parts[2]);
    const ok = publicKey
      ? await crypto.subtle.verify(ecdsa, publicKey, signature, signed)
      : await crypto.subtle.verify('HMAC', hmacKey, signature, signed);
    if (!ok) return false;
    const claims = JSON.parse(new TextDecoder().decode(base64UrlDecode(parts[1])));
    return typeof claims.exp !== 'number' || claims.exp * 1000 > Date.now();
  } catch {
    return false;
  }
}

realServe({ port, hostname, onListen: () => console.log(`functions host listening on ${hostname}:${port}`) }, async (received, info) => {
  const request = asForwardedByGateway(received, info.remoteAddr.hostname);
  const url = new URL(request.url);
  if (url.pathname === '/_internal/health') {
    return json(200, { functions: [...handlers.keys()], errors: Object.fromEntries(loadErrors) });
  }
  const name = url.pathname.split('/')[1] ?? '';
  const handler = handlers.get(name);
  if (!handler) {
    if (loadErrors.has(name)) return json(500, { message: `Function ${name} failed to load: ${loadErrors.get(name)}` });
    return json(404, { message: 'Function not found' });
  }
  if (request.method !== 'OPTIONS' && (verifyJwtByName[name] ?? true)) {
    const auth = request.headers.get('authorization');
    if (!auth) return json(401, { code: 401, message: 'Missing authorization header' });
    const token = auth.replace(/^Bearer\s+/i, '');
    if (!(await isValidJwt(token))) return json(401, { code: 401, message: 'Invalid JWT' });
  }
  try {
    return await handler(request, info);
  } catch (error) {
    console.error(`function ${name} threw:`, error);
    return json(500, { message: 'Internal Server Error' });
  }
});
