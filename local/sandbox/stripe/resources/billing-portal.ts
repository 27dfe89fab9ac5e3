// Billing portal sessions: the API creates them, with a configuration (the account's default
// unless one is named) and optionally a flow that opens the portal on one task (a plan change);
// the hosted portal page (hosted-pages.ts) uses them.
import type { FormObject, FormValue } from '../../form.ts';
import { checkAllowed, fail, noSuch, str, validUrl, type Route } from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { newId, nowSeconds, type Json } from '../primitives.ts';
import { liveCustomer } from './customers.ts';
import { defaultConfiguration, findConfiguration, type PortalConfiguration } from './portal-configurations.ts';

/** A flow that opens the portal on a plan change: choosing one, or confirming a given price. */
export interface PortalFlow extends Json {
  type: 'subscription_update' | 'subscription_update_confirm';
  after_completion: {
    type: 'portal_homepage' | 'redirect' | 'hosted_confirmation';
    redirect: { return_url: string } | null;
    hosted_confirmation: { custom_message: string | null } | null;
  };
  subscription_update: { subscription: string } | null;
  subscription_update_confirm: { subscription: string; items: Array<{ id: string; price: string; quantity: number }>; discounts: [] } | null;
}

export interface PortalSession extends Json {
  id: string;
  object: 'billing_portal.session';
  configuration: string;
  customer: string;
  flow: PortalFlow | null;
  return_url: string | null;
  url: string;
}

const asObject = (value: FormValue | undefined, param: string): FormObject => {
  if (value === undefined) fail(400, `Missing required param: ${param}.`, 'parameter_missing', param);
  if (typeof value !== 'object' || Array.isArray(value)) fail(400, 'Invalid object', 'parameter_invalid_object', param);
  return value;
};

/** The prices a configuration lets a customer move to. */
export function allowedPrices(config: PortalConfiguration): string[] {
  const feature = config.features.subscription_update;
  if (!feature.enabled || !feature.default_allowed_updates.includes('price')) return [];
  return (feature.products ?? []).flatMap((p) => p.prices);
}

function flowFrom(sandbox: StripeSandbox, raw: FormValue, customer: string, config: PortalConfiguration): PortalFlow {
  const data = asObject(raw, 'flow_data');
  checkAllowed(data, ['type', 'after_completion', 'subscription_update', 'subscription_update_confirm', 'subscription_cancel', 'subscription_pause']);
  const type = str(data, 'type', true);
  if (type !== 'subscription_update' && type !== 'subscription_update_confirm')
    fail(400, `The sandbox supports flow_data[type] subscription_update and subscription_update_confirm, not ${type}.`, 'parameter_invalid_string', 'flow_data[type]');
  if (allowedPrices(config).length === 0)
    fail(400, 'This flow cannot be used: the portal configuration does not allow subscription updates.', 'parameter_invalid_string', 'flow_data[type]');
  const details = asObject(data[type], `flow_data[${type}]`);
  const subscriptionId = str(details, 'subscription', true) as string;
  const sub = sandbox.state.data.subscriptions[subscriptionId];
  if (!sub || sub.customer !== customer) noSuch('subscription', subscriptionId, `flow_data[${type}][subscription]`);
  if (sub.status === 'canceled')
    fail(400, `The subscription ${subscriptionId} is canceled and cannot be updated.`, 'parameter_invalid_string', `flow_data[${type}][subscription]`);

  let confirm: PortalFlow['subscription_update_confirm'] = null;
  if (type === 'subscription_update_confirm') {
    const items = details.items;
    if (!Array.isArray(items) || items.length !== 1)
      fail(400, 'flow_data[subscription_update_confirm][items] must name one subscription item.', 'parameter_invalid_array', 'flow_data[subscription_update_confirm][items]');
    const item = asObject(items[0], 'flow_data[subscription_update_confirm][items][0]');
    const itemId = str(item, 'id', true) as string;
    const price = str(item, 'price', true) as string;
    const existing = sub.items.data.find((x) => x.id === itemId);
    if (!existing) noSuch('subscription_item', itemId, 'flow_data[subscription_update_confirm][items][0][id]');
    if (!allowedPrices(config).includes(price))
      fail(400, `The price ${price} is not one the portal configuration allows.`, 'parameter_invalid_string', 'flow_data[subscription_update_confirm][items][0][price]');
    confirm = { subscription: sub.id, items: [{ id: itemId, price, quantity: existing.quantity }], discounts: [] };
  }

  const after = data.after_completion === undefined ? { type: 'portal_homepage' } : asObject(data.after_completion, 'flow_data[after_completion]');
  const afterType = str(after as FormObject, 'type', true);
  if (afterType !== 'portal_homepage' && afterType !== 'redirect' && afterType !== 'hosted_confirmation')
    fail(400, `Invalid flow_data[after_completion][type]: ${afterType}`, 'parameter_invalid_string', 'flow_data[after_completion][type]');
  const redirect =
    afterType === 'redirect'
      ? { return_url: validUrl(asObject((after as FormObject).redirect, 'flow_data[after_completion][redirect]'), 'return_url', true) as string }
      : null;
  return {
    type,
    after_completion: {
      type: afterType,
      redirect,
      hosted_confirmation: afterType === 'hosted_confirmation' ? { custom_message: null } : null,
    },
    customer_update: null,
    subscription_cancel: null,
    subscription_pause: null,
    subscription_update: type === 'subscription_update' ? { subscription: sub.id } : null,
    subscription_update_confirm: confirm,
  };
}

function createPortalSession(sandbox: StripeSandbox, params: FormObject): Json {
  checkAllowed(params, [
    'customer',
    'return_url',
    'configuration',
    'locale',
    'flow_data',
    'on_behalf_of',
    'customer_account',
  ]);
  const customerId = str(params, 'customer', true) as string;
  liveCustomer(sandbox, customerId, 'customer');
  const returnUrl = validUrl(params, 'return_url', false);
  const configId = str(params, 'configuration');
  const config = configId ? findConfiguration(sandbox, configId, 'configuration') : defaultConfiguration(sandbox);
  if (!config.active) fail(400, `The configuration ${config.id} is not active.`, 'parameter_invalid_string', 'configuration');
  const flow = params.flow_data === undefined ? null : flowFrom(sandbox, params.flow_data, customerId, config);
  const id = newId('bps_');
  const session: PortalSession = {
    id,
    object: 'billing_portal.session',
    configuration: config.id,
    created: nowSeconds(),
    customer: customerId,
    customer_account: null,
    flow,
    livemode: false,
    locale: str(params, 'locale'),
    on_behalf_of: null,
    return_url: returnUrl ?? (config.default_return_url as string | null),
    url: `${sandbox.baseUrl}/portal/${id}`,
  };
  sandbox.state.data.portalSessions[id] = session;
  sandbox.state.save();
  return session;
}

export const billingPortalRoutes: Route[] = [
  { method: 'POST', pattern: /^\/v1\/billing_portal\/sessions$/, handler: (s, p) => createPortalSession(s, p) },
];
