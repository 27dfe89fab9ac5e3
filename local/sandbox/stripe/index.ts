// The Stripe sandbox module: the /v1 API (Bearer secret key, Request-Id, idempotency keys),
// the hosted checkout and billing portal pages, and sandbox-only helpers under /_sandbox/stripe.
import type { StackConfig } from '../../config.ts';
import type { SandboxModule } from '../types.ts';
import { checkoutHandler, portalHandler } from './hosted-pages.ts';
import { homeSection } from './pages.ts';
import { EventLog } from './resources/events.ts';
import type { StripeSandbox } from './sandbox.ts';
import { sandboxHelpers } from './sandbox-helpers.ts';
import { stripeSettings } from './settings.ts';
import { BillingSimulation } from './simulation.ts';
import { StripeState } from './state.ts';
import { apiHandler } from './v1-front.ts';

export { stripeFunctionEnv, stripeSettings } from './settings.ts';
export { signatureHeader } from './webhooks.ts';

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
  const api = apiHandler(sandbox);
  const checkout = checkoutHandler(sandbox, config);
  const portal = portalHandler(sandbox);
  const { listEvents, showEvent, resendEvent, simulate } = sandboxHelpers(sandbox);

  return {
    name: 'Stripe',
    routes(routes) {
      routes.all('/v1/*', api);
      for (const [path, page] of [
        ['/checkout', checkout],
        ['/portal', portal],
      ] as const) {
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
