// A Kong-like gateway on the Supabase CLI's API port: routes /auth/v1, /rest/v1, /storage/v1
// and /functions/v1, adds CORS for the site's own origins, decides the client address, and checks
// the `apikey` where Supabase's Kong does.
// Bodies are streamed through, never buffered, so multi-GB uploads keep memory flat.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { StackConfig } from '../config.ts';
import { decideClientAddress, gatewayHeader, gatewayToken, relayToken } from '../lib/client-address.ts';
import { allowedOrigins } from '../lib/origins.ts';
import { proxyTo } from '../lib/proxy.ts';
import { sendJson, sendJsonError } from '../lib/http.ts';
import { createRouter } from '../lib/router.ts';
import type { LocalService } from '../lib/service.ts';

const allowedHeaders = [
  'authorization', 'x-client-info', 'apikey', 'content-type', 'x-upsert', 'cache-control', 'accept-profile',
  'content-profile', 'prefer', 'range', 'x-supabase-api-version', 'tus-resumable', 'upload-length', 'upload-offset',
  'upload-metadata', 'upload-defer-length', 'upload-concat', 'x-http-method-override', 'x-requested-with',
  'stripe-signature',
].join(', ');

const exposedHeaders = [
  'content-range', 'content-location', 'x-supabase-api-version', 'x-total-count', 'link', 'location', 'tus-resumable',
  'tus-version', 'tus-extension', 'tus-max-size', 'upload-offset', 'upload-length', 'upload-metadata', 'etag',
  'content-length', 'content-type', 'preference-applied',
].join(', ');

/** CORS for an allowed origin only; any other origin gets no CORS headers (the browser blocks it). */
function setCors(req: IncomingMessage, res: ServerResponse, origins: Set<string>): void {
  res.setHeader('vary', 'Origin');
  const origin = req.headers.origin;
  if (!origin || !origins.has(origin)) return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-allow-credentials', 'true');
  res.setHeader('access-control-allow-methods', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? allowedHeaders);
  res.setHeader('access-control-expose-headers', exposedHeaders);
  res.setHeader('access-control-max-age', '3600');
}

/** Headers only the gateway may set: a client's own copies would be trusted downstream. */
const proxyHeaders = [gatewayHeader, 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip'];

/** Auth routes Kong leaves open (links clicked in e-mails, OAuth redirects, the public keys). */
const openAuthPaths = /^\/(verify|callback|authorize|health|\.well-known\/jwks\.json)(\/|\?|$)/;

interface GatewayParts {
  auth: LocalService;
  storage: LocalService;
}

export function startGateway(config: StackConfig, parts: GatewayParts): Promise<http.Server> {
  const knownKeys = new Set([config.anonKey, config.serviceRoleKey]);
  const origins = allowedOrigins(config);
  const functionsRelay = relayToken(config.jwtSecret);
  const forwardedByGateway = { [gatewayHeader]: gatewayToken(config.jwtSecret) };

  type Service = 'auth' | 'rest' | 'storage' | 'functions';

  function forward(service: Service, req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    // Functions answer CORS themselves (the api function keeps its own allowlist).
    if (service !== 'functions') setCors(req, res, origins);
    const rest = url.slice(`/${service}/v1`.length) || '/';
    const isStorage = service === 'storage';
    // Browsers' preflights are answered here, except TUS, whose OPTIONS carries protocol headers.
    if (req.method === 'OPTIONS' && service !== 'functions' && !(isStorage && rest.startsWith('/upload/resumable'))) {
      return void res.writeHead(204).end();
    }

    const apikey = (req.headers.apikey as string | undefined) ?? new URL(url, 'http://x').searchParams.get('apikey');
    const needsKey = service === 'rest' || (service === 'auth' && !openAuthPaths.test(rest));
    if (needsKey) {
      if (!apikey) return sendJson(res, 401, { message: 'No API key found in request' });
      if (!knownKeys.has(apikey)) return sendJson(res, 401, { message: 'Invalid API key' });
    }
    // As Supabase's Kong: a request with only an apikey runs as that key's role.
    if (!req.headers.authorization && apikey && knownKeys.has(apikey) && service !== 'auth') {
      req.headers.authorization = `Bearer ${apikey}`;
    }

    req.url = rest;
    switch (service) {
      case 'auth':
        return void parts.auth.handler(req, res);
      case 'storage':
        return void parts.storage.handler(req, res);
      case 'rest':
        return proxyTo({ host: config.host, port: config.ports.rest }, rest, req, res);
      default:
        return proxyTo({ host: config.host, port: config.ports.functions }, rest, req, res, forwardedByGateway);
    }
  }

  const router = createRouter({
    notFound(req, res, { badUrl }) {
      setCors(req, res, origins);
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      if (badUrl) return sendJson(res, 400, { message: 'Bad request' });
      sendJson(res, 404, { message: 'no Route matched with those values' });
    },
    onError: (_req, res, error) => {
      console.error('[gateway]', error);
      sendJsonError(res, 500, { message: 'An unexpected error occurred' });
    },
  });
  for (const service of ['auth', 'rest', 'storage', 'functions'] as const) {
    const handler = (req: IncomingMessage, res: ServerResponse) => forward(service, req, res);
    router.all(`/${service}/v1`, handler).all(`/${service}/v1/*`, handler);
  }

  const server = http.createServer((req, res) => {
    // Whom this request counts as (Auth's rate limits); then only the gateway's own word on it.
    const address = decideClientAddress(req, functionsRelay);
    for (const name of proxyHeaders) delete req.headers[name];
    req.headers['x-forwarded-for'] = address;
    void router.handle(req, res);
  });
  server.requestTimeout = 0; // long uploads
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`API gateway could not listen on ${config.host}:${config.ports.gateway}: ${error.code === 'EADDRINUSE' ? 'port taken' : error.message}`)),
    );
    server.listen(config.ports.gateway, config.host, () => resolve(server));
  });
}
