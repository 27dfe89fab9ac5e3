// The /v1 API's front door: the API key, the Stripe-Version header and idempotency keys, before the resources.
import type { ServerResponse } from 'node:http';
import { parseForm, parseNested } from '../form.ts';
import { sendJson } from '../../lib/http.ts';
import type { SandboxRequest } from '../types.ts';
import { handleApi, StripeApiError, type StripeErrorBody } from './api.ts';
import { newId } from './primitives.ts';
import type { StripeSandbox } from './sandbox.ts';

interface CachedResponse {
  fingerprint: string;
  status: number;
  body: unknown;
}

const MAX_IDEMPOTENCY_KEYS = 5000;

function errorJson(res: ServerResponse, status: number, error: StripeErrorBody, headers: Record<string, string>): void {
  const body: Record<string, unknown> = {};
  if (error.code) body.code = error.code;
  if (error.code) body.doc_url = `https://stripe.com/docs/error-codes/${error.code.replaceAll('_', '-')}`;
  body.message = error.message;
  if (error.param) body.param = error.param;
  body.request_log_url = `https://dashboard.stripe.com/test/logs/${headers['request-id']}`;
  body.type = error.type;
  sendJson(res, status, { error: body }, headers);
}

function maskKey(key: string): string {
  return key.length > 8 ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` : '***';
}

/** The API key from `Authorization: Bearer <key>` or HTTP Basic with the key as user name. */
function apiKeyOf(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value] = header.trim().split(/\s+/, 2);
  if (!value) return null;
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() === 'basic') return Buffer.from(value, 'base64').toString('utf8').split(':')[0] || null;
  return null;
}

/** The handler for every /v1 request. */
export function apiHandler(sandbox: StripeSandbox): (request: SandboxRequest) => Promise<void> {
  const { settings, state } = sandbox;
  const idempotency = new Map<string, CachedResponse>();

  return async function api(request: SandboxRequest): Promise<void> {
    const { req, res, method, url } = request;
    const requestId = newId('req_', 14);
    const headers: Record<string, string> = { 'request-id': requestId, 'stripe-version': state.data.apiVersion };
    const key = apiKeyOf(req.headers.authorization);
    if (!key) {
      errorJson(
        res,
        401,
        {
          type: 'invalid_request_error',
          message:
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
        },
        { ...headers, 'www-authenticate': 'Bearer realm="Stripe"' },
      );
      return;
    }
    if (key !== settings.secretKey) {
      errorJson(
        res,
        401,
        { type: 'invalid_request_error', message: `Invalid API Key provided: ${maskKey(key)}` },
        { ...headers, 'www-authenticate': 'Bearer realm="Stripe"' },
      );
      return;
    }
    const version = req.headers['stripe-version'];
    if (typeof version === 'string' && version && version !== state.data.apiVersion) {
      state.data.apiVersion = version;
      headers['stripe-version'] = version;
      state.save();
    }
    const bodyText = request.body.toString('utf8');
    const idemKey = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const cacheKey = typeof idemKey === 'string' ? `${key} ${idemKey}` : null;
    const fingerprint = `${method} ${url.pathname} ${bodyText}`;
    if (cacheKey) {
      const cached = idempotency.get(cacheKey);
      if (cached) {
        if (cached.fingerprint !== fingerprint) {
          errorJson(
            res,
            400,
            {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
            },
            headers,
          );
          return;
        }
        sendJson(res, cached.status, cached.body, {
          ...headers,
          'idempotent-replayed': 'true',
          'idempotency-key': String(idemKey),
        });
        return;
      }
    }
    const remember = (status: number, body: unknown) => {
      if (!cacheKey) return;
      idempotency.set(cacheKey, { fingerprint, status, body });
      if (idempotency.size > MAX_IDEMPOTENCY_KEYS) idempotency.delete(idempotency.keys().next().value as string);
    };
    try {
      const params = method === 'POST' ? parseForm(bodyText) : parseNested(url.searchParams);
      const result = await handleApi(sandbox, { method, path: url.pathname, params });
      remember(200, result);
      sendJson(res, 200, result, headers);
    } catch (error) {
      if (error instanceof StripeApiError) {
        if (error.status === 400) remember(error.status, { error: error.body });
        errorJson(res, error.status, error.body, headers);
        return;
      }
      errorJson(res, 500, { type: 'api_error', message: `Sandbox error: ${(error as Error).message}` }, headers);
    }
  };
}
