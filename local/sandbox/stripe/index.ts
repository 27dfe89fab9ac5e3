// The Stripe sandbox module: the /v1 API (Bearer secret key, Request-Id, idempotency keys),
// the hosted checkout and billing portal pages, and sandbox-only helpers under /_sandbox/stripe.
import type { ServerResponse } from 'node:http';
import type { StackConfig } from '../../config.ts';
import { parseForm, parseNested } from '../form.ts';
import { redirect, sendJson } from '../../lib/http.ts';
import { sendHtml } from '../http.ts';
import type { SandboxModule, SandboxRequest } from '../types.ts';
import { handleApi, StripeApiError, type StripeErrorBody } from './api.ts';
import { checkoutPage, homeSection, messagePage, portalPage } from './pages.ts';
import { EventLog } from './resources/events.ts';
import type { StripeSandbox } from './sandbox.ts';
import { stripeSettings } from './settings.ts';
import { newId } from './primitives.ts';
import { BillingSimulation } from './simulation.ts';
import { StripeState } from './state.ts';

export { stripeFunctionEnv, stripeSettings } from './settings.ts';
export { signatureHeader } from './webhooks.ts';

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

function wantsHtml(request: SandboxRequest): boolean {
  return (request.req.headers.accept ?? '').includes('text/html');
}

export function createStripeSandbox(config: StackConfig, options: { dataDir: string }): SandboxModule {
  const settings = stripeSettings(config);
  const state = new StripeState(settings, options.dataDir);
  const events = new EventLog(state, settings);
  const sandbox: StripeSandbox = {
    settings,
    baseUrl: config.urls.sandbox,
    state,
    events,
    get billing() {
      return billing;
    },
  };
  const billing = new BillingSimulation(sandbox);
  events.startRetries();
  const idempotency = new Map<string, CachedResponse>();

  async function api(request: SandboxRequest): Promise<void> {
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
  }

  async function checkout(request: SandboxRequest, id: string, action: string | undefined): Promise<void> {
    const { res, method } = request;
    const session = state.data.checkoutSessions[id];
    if (!session) {
      sendHtml(res, 404, messagePage('Checkout session not found', `There is no checkout session ${id}.`));
      return;
    }
    if (session.status === 'open' && session.expires_at <= Math.floor(Date.now() / 1000)) {
      session.status = 'expired';
      session.url = null;
      state.save();
    }
    if (session.status !== 'open') {
      const link =
        session.status === 'complete' && session.success_url
          ? { href: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id), text: 'Continue to Castloop' }
          : session.cancel_url
            ? { href: session.cancel_url, text: 'Return to Castloop' }
            : undefined;
      sendHtml(
        res,
        409,
        messagePage(
          session.status === 'complete' ? 'Already paid' : 'Checkout session expired',
          session.status === 'complete'
            ? 'This checkout session is already complete.'
            : 'This checkout session has expired.',
          link,
        ),
      );
      return;
    }
    if (method === 'GET' && !action) {
      sendHtml(res, 200, checkoutPage(sandbox, session));
      return;
    }
    if (method === 'POST' && action === 'pay') {
      const form = parseForm(request.body.toString('utf8'));
      const email =
        typeof form.email === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())
          ? form.email.trim()
          : null;
      if (!session.customer && !session.customer_email && !email) {
        sendHtml(res, 400, checkoutPage(sandbox, session, 'Enter a valid e-mail address.'));
        return;
      }
      const done = await billing.pay(session.id, email);
      redirect(res, (done.success_url ?? config.urls.web).replaceAll('{CHECKOUT_SESSION_ID}', done.id));
      return;
    }
    sendHtml(res, 405, messagePage('Not allowed', `${method} is not allowed here.`));
  }

  async function portal(request: SandboxRequest, id: string, action: string | undefined): Promise<void> {
    const { res, method, url } = request;
    const session = state.data.portalSessions[id];
    const customer = session ? state.data.customers[session.customer] : undefined;
    if (!session || !customer) {
      sendHtml(res, 404, messagePage('Billing portal session not found', `There is no billing portal session ${id}.`));
      return;
    }
    if (method === 'GET' && !action) {
      const notices: Record<string, string> = {
        scheduled: 'Your subscription will be canceled at the end of the billing period.',
        canceled: 'Your subscription has been canceled.',
        renewed: 'Your subscription has been renewed.',
      };
      sendHtml(res, 200, portalPage(sandbox, session, customer, notices[url.searchParams.get('notice') ?? '']));
      return;
    }
    if (method === 'POST' && (action === 'cancel' || action === 'renew')) {
      const form = parseForm(request.body.toString('utf8'));
      const sub = typeof form.subscription === 'string' ? state.data.subscriptions[form.subscription] : undefined;
      if (!sub || sub.customer !== customer.id) {
        sendHtml(
          res,
          404,
          messagePage('Subscription not found', 'This subscription does not belong to this customer.'),
        );
        return;
      }
      let notice: string;
      if (action === 'renew') {
        await billing.setCancelAtPeriodEnd(sub.id, false);
        notice = 'renewed';
      } else if (form.when === 'now') {
        await billing.cancelNow(sub.id);
        notice = 'canceled';
      } else {
        await billing.setCancelAtPeriodEnd(sub.id, true);
        notice = 'scheduled';
      }
      redirect(res, `/portal/${session.id}?notice=${notice}`);
      return;
    }
    sendHtml(res, 405, messagePage('Not allowed', `${method} is not allowed here.`));
  }

  /** Sandbox-only helpers: a bad request is a 400 with the reason. */
  const helper =
    (handler: (request: SandboxRequest) => Promise<void> | void) =>
    async (request: SandboxRequest): Promise<void> => {
      try {
        await handler(request);
      } catch (error) {
        sendJson(request.res, 400, { message: (error as Error).message });
      }
    };

  const listEvents = helper(({ res, url }) => {
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 100) || 100, 1000);
    sendJson(res, 200, { data: events.recent(limit) });
  });

  const showEvent = helper(({ res, params }) => {
    const record = state.data.events[params.id];
    if (!record) sendJson(res, 404, { message: `No such event: ${params.id}` });
    else sendJson(res, 200, record);
  });

  const resendEvent = helper(async (request) => {
    const { res, params } = request;
    if (!params.id.startsWith('evt_') || !state.data.events[params.id]) {
      sendJson(res, 404, { message: `No such event: ${params.id}` });
      return;
    }
    const delivery = await events.resend(params.id);
    if (wantsHtml(request)) redirect(res, '/#stripe');
    else sendJson(res, 200, { event: params.id, delivery });
  });

  const simulate = (action: 'payment_failed' | 'advance') =>
    helper(async ({ res, params }) => {
      if (!params.id.startsWith('sub_') || !state.data.subscriptions[params.id]) {
        sendJson(res, 404, { message: `No such subscription: ${params.id}` });
        return;
      }
      sendJson(res, 200, action === 'payment_failed' ? await billing.paymentFailed(params.id) : await billing.advancePeriod(params.id));
    });

  return {
    name: 'Stripe',
    routes(routes) {
      routes.all('/v1/*', api);
      for (const [path, page] of [['/checkout', checkout], ['/portal', portal]] as const) {
        routes.all(`${path}/:id`, (request) => page(request, request.params.id, undefined));
        routes.all(`${path}/:id/:action`, (request) => page(request, request.params.id, request.params.action));
      }
      routes.on('GET', '/_sandbox/stripe/events', listEvents).on('GET', '/_sandbox/stripe/events/:id', showEvent);
      routes.on('POST', '/_sandbox/stripe/events/:id/resend', resendEvent);
      // Also reachable under events/, as `/_sandbox/stripe/events/<sub>/payment_failed`.
      for (const kind of ['subscriptions', 'events']) {
        for (const action of ['payment_failed', 'advance'] as const) {
          routes.on('POST', `/_sandbox/stripe/${kind}/:id/${action}`, simulate(action));
        }
      }
    },
    homeSection: () => homeSection(sandbox),
    stop: async () => {
      await events.stop();
      state.flush();
    },
  };
}
