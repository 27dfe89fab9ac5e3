// Subscriptions and their items. In this API version the billing period lives on each item
// (`current_period_start`/`_end`), not on the subscription. Renewals, failed payments and
// cancellations are the billing simulation's (simulation.ts).
import type { FormObject } from '../../form.ts';
import {
  bool,
  checkAllowed,
  fail,
  listParams,
  mergeMetadata,
  metadataParam,
  noSuch,
  paginate,
  str,
  type Route,
} from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { newId, type Json, type Metadata } from '../primitives.ts';
import type { LineItemInput } from './checkout-sessions.ts';
import type { ProrationBehavior } from './portal-configurations.ts';
import { planOf, type Price } from './prices.ts';

interface Period {
  start: number;
  end: number;
}

export interface SubscriptionItem extends Json {
  id: string;
  object: 'subscription_item';
  price: Price;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
  subscription: string;
}

type SubscriptionStatus = 'active' | 'past_due' | 'canceled' | 'incomplete' | 'unpaid' | 'trialing';

export interface Subscription extends Json {
  id: string;
  object: 'subscription';
  created: number;
  customer: string;
  currency: string;
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  cancellation_details: Json;
  description: string | null;
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; url: string };
  latest_invoice: string | null;
  metadata: Metadata;
  /** The subscription schedule that manages it (a plan change waiting for the period's end). */
  schedule: string | null;
}

/** The current billing period: the (first) item's. */
export function periodOf(subscription: Subscription): Period {
  const item = subscription.items.data[0];
  return { start: item?.current_period_start ?? subscription.created, end: item?.current_period_end ?? subscription.created };
}

/**
 * What moving `item` to `price` at `at` prorates, as Stripe computes it to the second: a credit
 * for the unused rest of the period at the old price and a charge for it at the new one, each
 * rounded to the cent.
 */
export function prorationOf(subscription: Subscription, item: SubscriptionItem, price: Price, at: number) {
  const { start, end } = periodOf(subscription);
  const share = end > start ? Math.max(0, end - at) / (end - start) : 0;
  const unused = -Math.round(item.price.unit_amount * item.quantity * share);
  const remaining = Math.round(price.unit_amount * item.quantity * share);
  return { unused, remaining, period: { start: Math.min(at, end), end } };
}

export function setPeriod(subscription: Subscription, period: Period): void {
  for (const item of subscription.items.data) {
    item.current_period_start = period.start;
    item.current_period_end = period.end;
  }
}

export function buildSubscriptionItem(
  sandbox: StripeSandbox,
  subscriptionId: string,
  item: LineItemInput,
  period: Period,
): SubscriptionItem {
  const price = sandbox.state.prices.get(item.price);
  if (!price) throw new Error(`No such price: '${item.price}'`);
  return {
    id: newId('si_', 14),
    object: 'subscription_item',
    billing_thresholds: null,
    created: period.start,
    current_period_end: period.end,
    current_period_start: period.start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(price),
    price: structuredClone(price),
    quantity: item.quantity,
    subscription: subscriptionId,
    tax_rates: [],
  };
}

export function buildSubscription(
  sandbox: StripeSandbox,
  fields: {
    customer: string;
    currency: string;
    items: LineItemInput[];
    period: Period;
    description: string | null;
    metadata: Metadata;
  },
): Subscription {
  const id = newId('sub_');
  const now = fields.period.start;
  const items = fields.items.map((item) => buildSubscriptionItem(sandbox, id, item, fields.period));
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: now,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: now,
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: newId('pm_'),
    default_source: null,
    default_tax_rates: [],
    description: fields.description,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: { object: 'list', data: items, has_more: false, url: `/v1/subscription_items?subscription=${id}` },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: { ...fields.metadata },
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: now,
    status: 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: null,
  };
}

async function updateSubscription(sandbox: StripeSandbox, params: FormObject, id: string): Promise<Json> {
  checkAllowed(params, [
    'cancel_at_period_end',
    'metadata',
    'items',
    'proration_behavior',
    'cancellation_details',
    'description',
    'payment_behavior',
  ]);
  const sub = sandbox.state.data.subscriptions[id];
  if (!sub) noSuch('subscription', id);
  if (sub.status === 'canceled')
    fail(
      400,
      `A canceled subscription can only update its cancellation_details and metadata.`,
      'resource_missing',
    );
  const behavior = str(params, 'proration_behavior') ?? 'create_prorations';
  if (!['create_prorations', 'always_invoice', 'none'].includes(behavior))
    fail(400, 'Invalid proration_behavior: must be one of create_prorations, always_invoice, or none', 'parameter_invalid_string', 'proration_behavior');
  const previous: Json = {};
  /** What a price change sends before customer.subscription.updated (prorations, an invoice). */
  const before: Array<[string, Json]> = [];
  const metadata = metadataParam(params.metadata, 'metadata');
  if (metadata !== undefined) {
    previous.metadata = sub.metadata;
    sub.metadata = mergeMetadata(sub.metadata, metadata);
  }
  if (params.description !== undefined) {
    previous.description = sub.description;
    sub.description = str(params, 'description') || null;
  }
  if (params.items !== undefined) {
    if (!Array.isArray(params.items)) fail(400, 'Invalid array', 'parameter_invalid_array', 'items');
    previous.items = structuredClone(sub.items);
    const period = periodOf(sub);
    params.items.forEach((raw, i) => {
      if (typeof raw !== 'object' || Array.isArray(raw))
        fail(400, 'Invalid object', 'parameter_invalid_object', `items[${i}]`);
      const itemId = typeof raw.id === 'string' ? raw.id : null;
      const priceId = typeof raw.price === 'string' ? raw.price : null;
      if (priceId && !sandbox.state.prices.has(priceId)) noSuch('price', priceId, `items[${i}][price]`);
      const existing = itemId ? sub.items.data.find((x) => x.id === itemId) : null;
      if (itemId && !existing) noSuch('subscription_item', itemId, `items[${i}][id]`);
      if (existing && priceId) {
        before.push(...sandbox.billing.priceChange(sub, existing, priceId, behavior as ProrationBehavior));
      } else if (!existing && priceId) {
        sub.items.data.push(buildSubscriptionItem(sandbox, sub.id, { price: priceId, quantity: 1 }, period));
      }
    });
  }
  sandbox.state.save();
  for (const [type, object] of before) void sandbox.events.emit(type, object).delivered;
  const cancel = bool(params, 'cancel_at_period_end');
  if (cancel !== null && cancel !== sub.cancel_at_period_end) {
    // setCancelAtPeriodEnd sends its own customer.subscription.updated (with the other changes in it).
    void sandbox.billing.setCancelAtPeriodEnd(sub.id, cancel);
  } else if (Object.keys(previous).length > 0) {
    void sandbox.events.emit('customer.subscription.updated', sub, previous).delivered;
  }
  return sub;
}

function listSubscriptions(sandbox: StripeSandbox, params: FormObject): Json {
  checkAllowed(params, [...listParams, 'customer', 'status', 'price']);
  const customer = str(params, 'customer');
  const status = str(params, 'status');
  const price = str(params, 'price');
  const subs = Object.values(sandbox.state.data.subscriptions).filter(
    (s) =>
      (!customer || s.customer === customer) &&
      (status === 'all' ? true : status ? s.status === status : s.status !== 'canceled') &&
      (!price || s.items.data.some((i) => i.price.id === price)),
  );
  return paginate(subs, params, '/v1/subscriptions');
}

export const subscriptionRoutes: Route[] = [
  { method: 'GET', pattern: /^\/v1\/subscriptions$/, handler: (s, p) => listSubscriptions(s, p) },
  {
    method: 'GET',
    pattern: /^\/v1\/subscriptions\/([^/]+)$/,
    handler: (s, p, [id]) => {
      checkAllowed(p, []);
      return s.state.data.subscriptions[id] ?? noSuch('subscription', id);
    },
  },
  { method: 'POST', pattern: /^\/v1\/subscriptions\/([^/]+)$/, handler: (s, p, [id]) => updateSubscription(s, p, id) },
  {
    method: 'DELETE',
    pattern: /^\/v1\/subscriptions\/([^/]+)$/,
    handler: async (s, p, [id]) => {
      checkAllowed(p, ['cancellation_details', 'invoice_now', 'prorate']);
      const sub = s.state.data.subscriptions[id] ?? noSuch('subscription', id);
      if (sub.status === 'canceled') fail(400, `No such subscription: '${id}'`, 'resource_missing', 'id');
      void s.billing.cancelNow(sub.id);
      return structuredClone({ ...sub, status: 'canceled' });
    },
  },
];
