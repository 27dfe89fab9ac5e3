// The Stripe REST API subset Castloop uses, at /v1/*: each resource module brings its routes;
// answers are Stripe's object shapes, expanded as asked.
import { billingPortalRoutes } from './resources/billing-portal.ts';
import { checkoutSessionRoutes, lineItemsList } from './resources/checkout-sessions.ts';
import { customerRoutes } from './resources/customers.ts';
import { eventRoutes } from './resources/events.ts';
import { invoiceItemRoutes } from './resources/invoice-items.ts';
import { invoiceRoutes } from './resources/invoices.ts';
import { paymentRoutes } from './resources/payments.ts';
import { portalConfigurationRoutes } from './resources/portal-configurations.ts';
import { priceRoutes } from './resources/prices.ts';
import { subscriptionScheduleRoutes } from './resources/subscription-schedules.ts';
import { subscriptionRoutes } from './resources/subscriptions.ts';
import type { FormObject } from '../form.ts';
import { applyExpand, expandPaths, fail, type Route } from './request.ts';
import type { StripeSandbox } from './sandbox.ts';
import type { Json } from './primitives.ts';

export { StripeApiError, type StripeErrorBody } from './request.ts';

const routes: Route[] = [
  ...customerRoutes,
  ...priceRoutes,
  ...checkoutSessionRoutes,
  ...portalConfigurationRoutes,
  ...billingPortalRoutes,
  ...subscriptionRoutes,
  ...subscriptionScheduleRoutes,
  ...invoiceRoutes,
  ...invoiceItemRoutes,
  ...paymentRoutes,
  ...eventRoutes,
];

interface ApiRequest {
  method: string;
  path: string;
  params: FormObject;
}

/** Fields that exist only when expanded (a checkout session's `line_items`). */
function expandOnly(sandbox: StripeSandbox, object: Json, field: string): unknown {
  if (object.object === 'checkout.session' && field === 'line_items') return lineItemsList(sandbox, object.id as string);
  return undefined;
}

/** Runs a /v1 request; returns the JSON answer (expanded) or throws StripeApiError. */
export async function handleApi(sandbox: StripeSandbox, request: ApiRequest): Promise<Json> {
  for (const route of routes) {
    if (route.method !== request.method) continue;
    const m = route.pattern.exec(request.path);
    if (!m) continue;
    const ids = m.slice(1).map((x) => decodeURIComponent(x));
    const result = await route.handler(sandbox, request.params, ids);
    return applyExpand(sandbox, result, expandPaths(request.params), (object, field) => expandOnly(sandbox, object, field));
  }
  fail(
    404,
    `Unrecognized request URL (${request.method}: ${request.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  );
}
