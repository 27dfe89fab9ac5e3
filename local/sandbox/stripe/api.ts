// The Stripe REST API subset Castloop uses, at /v1/*: form-encoded requests, JSON answers
// with Stripe's object shapes, Stripe's error format and the Request-Id header.
import type { FormObject, FormValue } from '../form.ts';
import {
  buildCustomer,
  customerDetails,
  type CheckoutSession,
  type Customer,
  type Json,
  type LineItemInput,
  type Metadata,
  list,
  newId,
  nowSeconds,
  type PortalSession,
} from './objects.ts';
import type { StripeStore } from './store.ts';

export interface StripeErrorBody {
  type: 'invalid_request_error' | 'api_error' | 'idempotency_error' | 'card_error';
  message: string;
  code?: string;
  param?: string;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

export function fail(status: number, message: string, code?: string, param?: string): never {
  throw new StripeApiError(status, { type: 'invalid_request_error', message, code, param });
}

export function noSuch(kind: string, id: string, param = 'id'): never {
  fail(404, `No such ${kind}: '${id}'`, 'resource_missing', param);
}

// --- parameter helpers ----------------------------------------------------------------------

function str(params: FormObject, key: string, required = false): string | null {
  const v = params[key];
  if (v === undefined) {
    if (required) fail(400, `Missing required param: ${key}.`, 'parameter_missing', key);
    return null;
  }
  if (typeof v !== 'string') fail(400, `Invalid string: ${JSON.stringify(v)}`, 'parameter_invalid_string', key);
  if (required && v === '')
    fail(
      400,
      `You passed an empty string for '${key}'. We assume empty values are an attempt to unset a parameter; however '${key}' cannot be unset. You should remove '${key}' from your request or supply a non-empty value.`,
      'parameter_invalid_empty',
      key,
    );
  return v;
}

function int(value: FormValue | undefined, param: string, min: number, max: number): number | null {
  if (value === undefined) return null;
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n))
    fail(
      400,
      `Invalid integer: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
      'parameter_invalid_integer',
      param,
    );
  if (n < min || n > max)
    fail(400, `Invalid ${param}: must be between ${min} and ${max}`, 'parameter_invalid_integer', param);
  return n;
}

function bool(params: FormObject, key: string): boolean | null {
  const v = params[key];
  if (v === undefined) return null;
  if (v === 'true') return true;
  if (v === 'false') return false;
  fail(400, `Invalid boolean: ${typeof v === 'string' ? v : JSON.stringify(v)}`, 'parameter_invalid_boolean', key);
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function email(params: FormObject, key: string): string | null {
  const v = str(params, key);
  if (v === null || v === '') return v === '' ? null : v;
  if (!emailPattern.test(v)) fail(400, `Invalid email address: ${v}`, 'email_invalid', key);
  return v;
}

/** Validates a `metadata` hash. '' unsets all keys; a key with '' unsets that key. */
function metadataParam(value: FormValue | undefined, param: string): Metadata | '' | undefined {
  if (value === undefined) return undefined;
  if (value === '') return '';
  if (typeof value !== 'object' || Array.isArray(value)) fail(400, `Invalid object`, 'parameter_invalid_object', param);
  const out: Metadata = {};
  const entries = Object.entries(value);
  if (entries.length > 50) fail(400, 'Metadata can have at most 50 keys.', 'parameter_invalid_object', param);
  for (const [k, v] of entries) {
    if (typeof v !== 'string')
      fail(400, `Invalid string: ${JSON.stringify(v)}`, 'parameter_invalid_string', `${param}[${k}]`);
    if (k.length > 40)
      fail(
        400,
        `Metadata keys can have up to 40 characters; "${k}" has ${k.length}.`,
        'parameter_invalid_string',
        `${param}[${k}]`,
      );
    if (v.length > 500)
      fail(400, `Metadata values can have up to 500 characters.`, 'parameter_invalid_string', `${param}[${k}]`);
    out[k] = v;
  }
  return out;
}

function mergeMetadata(current: Metadata, update: Metadata | '' | undefined): Metadata {
  if (update === undefined) return current;
  if (update === '') return {};
  const next = { ...current };
  for (const [k, v] of Object.entries(update)) {
    if (v === '') delete next[k];
    else next[k] = v;
  }
  return next;
}

function checkAllowed(params: FormObject, allowed: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (key !== 'expand' && !allowed.includes(key))
      fail(400, `Received unknown parameter: ${key}`, 'parameter_unknown', key);
  }
}

function expandPaths(params: FormObject): string[] {
  const v = params.expand;
  if (v === undefined || v === '') return [];
  const values = Array.isArray(v) ? v : typeof v === 'object' ? Object.values(v) : [v];
  return values.filter((x): x is string => typeof x === 'string');
}

// --- expand ----------------------------------------------------------------------------------

function expandValue(store: StripeStore, value: unknown, segments: string[]): unknown {
  let current = value;
  if (typeof current === 'string') {
    const found = store.find(current);
    if (!found) return value;
    current = structuredClone(found);
  }
  if (segments.length === 0 || current === null || typeof current !== 'object') return current;
  const [head, ...rest] = segments;
  const obj = current as Json;
  if (Array.isArray(obj[head])) {
    obj[head] = (obj[head] as unknown[]).map((item) =>
      rest.length ? expandValue(store, item, rest) : expandValue(store, item, []),
    );
  } else if (head in obj) {
    obj[head] = expandValue(store, obj[head], rest);
  }
  return obj;
}

function applyExpand(store: StripeStore, object: Json, paths: string[]): Json {
  let out = structuredClone(object);
  for (const p of paths) {
    const segments = p.split('.');
    if (out.object === 'checkout.session' && segments[0] === 'line_items') {
      out.line_items = store.lineItemsList(out.id as string);
    }
    out = expandValue(store, out, segments) as Json;
  }
  return out;
}

// --- lists -------------------------------------------------------------------------------------

const listParams = ['limit', 'starting_after', 'ending_before'] as const;

function paginate<T extends { id: string; created: number }>(items: T[], params: FormObject, url: string): Json {
  const limit = int(params.limit, 'limit', 1, 100) ?? 10;
  const sorted = [...items].sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
  let start = 0;
  let end = sorted.length;
  const after = str(params, 'starting_after');
  const before = str(params, 'ending_before');
  if (after) {
    const i = sorted.findIndex((x) => x.id === after);
    if (i === -1) fail(400, `Invalid starting_after: '${after}'`, 'resource_missing', 'starting_after');
    start = i + 1;
  } else if (before) {
    const i = sorted.findIndex((x) => x.id === before);
    if (i === -1) fail(400, `Invalid ending_before: '${before}'`, 'resource_missing', 'ending_before');
    end = i;
    start = Math.max(0, end - limit);
  }
  const page = sorted.slice(start, Math.min(end, start + limit));
  return list(url, page, start + page.length < end);
}

// --- routes ------------------------------------------------------------------------------------

export interface ApiRequest {
  method: string;
  path: string;
  params: FormObject;
}

type Handler = (store: StripeStore, params: FormObject, ids: string[]) => Json | Promise<Json>;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

const customerFields = ['email', 'name', 'phone', 'description', 'metadata'] as const;
const customerIgnored = [
  'address',
  'shipping',
  'preferred_locales',
  'invoice_settings',
  'payment_method',
  'tax_exempt',
  'tax_id_data',
  'test_clock',
  'balance',
  'source',
  'tax',
  'invoice_prefix',
  'next_invoice_sequence',
  'cash_balance',
];

function liveCustomer(store: StripeStore, id: string, param = 'id'): Customer {
  const c = store.state.customers[id];
  if (!c || c.deleted) noSuch('customer', id, param);
  return c;
}

function createCustomer(store: StripeStore, params: FormObject): Json {
  checkAllowed(params, [...customerFields, ...customerIgnored]);
  const metadata = metadataParam(params.metadata, 'metadata');
  const customer = buildCustomer({
    email: email(params, 'email'),
    name: str(params, 'name') || null,
    phone: str(params, 'phone') || null,
    description: str(params, 'description') || null,
    metadata: metadata === '' || metadata === undefined ? {} : mergeMetadata({}, metadata),
  });
  store.state.customers[customer.id] = customer;
  store.save();
  return customer;
}

function updateCustomer(store: StripeStore, params: FormObject, id: string): Json {
  checkAllowed(params, [...customerFields, ...customerIgnored, 'default_source']);
  const customer = liveCustomer(store, id);
  if (params.email !== undefined) customer.email = email(params, 'email');
  if (params.name !== undefined) customer.name = str(params, 'name') || null;
  if (params.phone !== undefined) customer.phone = str(params, 'phone') || null;
  if (params.description !== undefined) customer.description = str(params, 'description') || null;
  customer.metadata = mergeMetadata(customer.metadata, metadataParam(params.metadata, 'metadata'));
  store.save();
  return customer;
}

function liveCustomers(store: StripeStore): Customer[] {
  return Object.values(store.state.customers).filter((c) => !c.deleted);
}

/** `GET /v1/customers/search?query=email:'a@b.c'` (email, name, metadata['key'] clauses joined by AND). */
function searchCustomers(store: StripeStore, params: FormObject): Json {
  checkAllowed(params, ['query', 'limit', 'page']);
  const query = str(params, 'query', true) as string;
  const clauses = query.split(/\s+AND\s+/i).map((clause) => {
    const m = /^\s*(email|name|phone|metadata\[['"]([^'"]+)['"]\])\s*(:|~)\s*['"]([^'"]*)['"]\s*$/.exec(clause);
    if (!m) fail(400, `Invalid search query: ${query}`, 'parameter_invalid_string', 'query');
    return { field: m[1].startsWith('metadata') ? `metadata.${m[2]}` : m[1], op: m[3], value: m[4] };
  });
  const limit = int(params.limit, 'limit', 1, 100) ?? 10;
  const matches = liveCustomers(store)
    .filter((c) =>
      clauses.every(({ field, op, value }) => {
        const actual = field.startsWith('metadata.') ? c.metadata[field.slice(9)] : (c[field] as string | null);
        if (actual == null) return false;
        return op === ':'
          ? actual.toLowerCase() === value.toLowerCase()
          : actual.toLowerCase().includes(value.toLowerCase());
      }),
    )
    .sort((a, b) => b.created - a.created);
  return {
    object: 'search_result',
    data: matches.slice(0, limit),
    has_more: matches.length > limit,
    next_page: null,
    url: '/v1/customers/search',
  };
}

const sessionParams = [
  'mode',
  'line_items',
  'success_url',
  'cancel_url',
  'customer',
  'customer_email',
  'client_reference_id',
  'metadata',
  'subscription_data',
  'allow_promotion_codes',
  'billing_address_collection',
  'automatic_tax',
  'customer_update',
  'locale',
  'payment_method_types',
  'payment_method_collection',
  'ui_mode',
  'expires_at',
  'consent_collection',
  'custom_text',
  'tax_id_collection',
  'phone_number_collection',
  'discounts',
  'customer_creation',
  'currency',
  'submit_type',
  'return_url',
  'redirect_on_completion',
  'custom_fields',
  'invoice_creation',
  'payment_method_options',
  'saved_payment_method_options',
  'shipping_address_collection',
  'adaptive_pricing',
  'branding_settings',
  'name_collection',
  'excluded_payment_method_types',
  'origin_context',
  'optional_items',
  'wallet_options',
  'permissions',
  'integration_identifier',
  'payment_method_configuration',
  'payment_intent_data',
  'setup_intent_data',
];

function lineItemsParam(store: StripeStore, value: FormValue | undefined): LineItemInput[] {
  if (value === undefined) fail(400, 'Missing required param: line_items.', 'parameter_missing', 'line_items');
  if (!Array.isArray(value) || value.length === 0) fail(400, 'Invalid array', 'parameter_invalid_array', 'line_items');
  return value.map((raw, i) => {
    const param = `line_items[${i}]`;
    if (typeof raw !== 'object' || Array.isArray(raw)) fail(400, 'Invalid object', 'parameter_invalid_object', param);
    for (const key of Object.keys(raw)) {
      if (!['price', 'quantity', 'adjustable_quantity', 'tax_rates', 'dynamic_tax_rates'].includes(key)) {
        fail(400, `Received unknown parameter: ${param}[${key}]`, 'parameter_unknown', `${param}[${key}]`);
      }
    }
    const price = raw.price;
    if (price === undefined)
      fail(400, `Missing required param: ${param}[price].`, 'parameter_missing', `${param}[price]`);
    if (typeof price !== 'string' || !store.prices.has(price)) noSuch('price', String(price), `${param}[price]`);
    const quantity = int(raw.quantity, `${param}[quantity]`, 1, 999_999) ?? 1;
    return { price, quantity };
  });
}

function validUrl(params: FormObject, key: string, required: boolean): string | null {
  const v = str(params, key, required);
  if (v === null || v === '') return null;
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    fail(400, `Not a valid URL`, 'url_invalid', key);
  }
  return v;
}

function createCheckoutSession(store: StripeStore, params: FormObject): Json {
  checkAllowed(params, sessionParams);
  const mode = str(params, 'mode', true);
  if (mode !== 'subscription') {
    if (mode === 'payment' || mode === 'setup')
      fail(
        400,
        `This sandbox supports mode 'subscription' only (Castloop sells subscriptions).`,
        'parameter_invalid_string',
        'mode',
      );
    fail(400, `Invalid mode: must be one of payment, setup, or subscription`, 'parameter_invalid_string', 'mode');
  }
  const uiMode = str(params, 'ui_mode');
  if (uiMode && uiMode !== 'hosted')
    fail(400, `This sandbox supports ui_mode 'hosted' only.`, 'parameter_invalid_string', 'ui_mode');
  const items = lineItemsParam(store, params.line_items);
  const successUrl = validUrl(params, 'success_url', true);
  const cancelUrl = validUrl(params, 'cancel_url', false);
  const customerId = str(params, 'customer');
  const customerEmail = email(params, 'customer_email');
  if (customerId && customerEmail)
    fail(
      400,
      'You may only specify one of these parameters: customer, customer_email.',
      'parameter_invalid_string',
      'customer_email',
    );
  const customer = customerId ? liveCustomer(store, customerId, 'customer') : null;
  const metadata = metadataParam(params.metadata, 'metadata');
  const subData = params.subscription_data;
  let subscriptionData: { metadata?: Metadata; description?: string } = {};
  if (subData !== undefined) {
    if (typeof subData !== 'object' || Array.isArray(subData))
      fail(400, 'Invalid object', 'parameter_invalid_object', 'subscription_data');
    const m = metadataParam(subData.metadata, 'subscription_data[metadata]');
    const description = typeof subData.description === 'string' ? subData.description : undefined;
    subscriptionData = { metadata: m === '' || m === undefined ? {} : m, description };
  }
  const created = nowSeconds();
  const expiresAt = int(params.expires_at, 'expires_at', created + 1800, created + 86400) ?? created + 86400;
  const id = newId('cs_test_', 58);
  const amount = store.sessionAmount(items);
  const currency = store.prices.get(items[0].price)?.currency ?? 'usd';
  const session: CheckoutSession = {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: bool(params, 'allow_promotion_codes'),
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: str(params, 'billing_address_collection'),
    cancel_url: cancelUrl,
    client_reference_id: str(params, 'client_reference_id') || null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: customer?.id ?? null,
    customer_creation: customer ? null : 'always',
    customer_details: customer ? customerDetails(customer) : null,
    customer_email: customerEmail,
    discounts: [],
    expires_at: expiresAt,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: str(params, 'locale'),
    metadata: metadata === '' || metadata === undefined ? {} : metadata,
    mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: {
      allow_redisplay_filters: ['always'],
      payment_method_remove: 'disabled',
      payment_method_save: null,
    },
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `${store.baseUrl}/checkout/${id}`,
    wallet_options: null,
  };
  store.state.checkoutSessions[id] = session;
  store.state.lineItems[id] = items;
  store.state.subscriptionData[id] = subscriptionData;
  store.save();
  return session;
}

/** Marks sessions past `expires_at` as expired (Stripe does this lazily too, from our view). */
function refreshSession(session: CheckoutSession): CheckoutSession {
  if (session.status === 'open' && session.expires_at <= nowSeconds()) {
    session.status = 'expired';
    session.url = null;
  }
  return session;
}

function getSession(store: StripeStore, id: string): CheckoutSession {
  const session = store.state.checkoutSessions[id];
  if (!session) noSuch('checkout.session', id);
  return refreshSession(session);
}

function createPortalSession(store: StripeStore, params: FormObject): Json {
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
  liveCustomer(store, customerId, 'customer');
  const returnUrl = validUrl(params, 'return_url', false);
  const id = newId('bps_');
  const session: PortalSession = {
    id,
    object: 'billing_portal.session',
    configuration: 'bpc_castloop_local',
    created: nowSeconds(),
    customer: customerId,
    flow: null,
    livemode: false,
    locale: str(params, 'locale'),
    on_behalf_of: null,
    return_url: returnUrl,
    url: `${store.baseUrl}/portal/${id}`,
  };
  store.state.portalSessions[id] = session;
  store.save();
  return session;
}

async function updateSubscription(store: StripeStore, params: FormObject, id: string): Promise<Json> {
  checkAllowed(params, [
    'cancel_at_period_end',
    'metadata',
    'items',
    'proration_behavior',
    'cancellation_details',
    'description',
    'payment_behavior',
  ]);
  const sub = store.state.subscriptions[id];
  if (!sub) noSuch('subscription', id);
  if (sub.status === 'canceled')
    fail(
      400,
      `A canceled subscription can only update its cancellation_details and metadata.`,
      'resource_missing',
      'id',
    );
  const previous: Json = {};
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
    params.items.forEach((raw, i) => {
      if (typeof raw !== 'object' || Array.isArray(raw))
        fail(400, 'Invalid object', 'parameter_invalid_object', `items[${i}]`);
      const itemId = typeof raw.id === 'string' ? raw.id : null;
      const priceId = typeof raw.price === 'string' ? raw.price : null;
      if (priceId && !store.prices.has(priceId)) noSuch('price', priceId, `items[${i}][price]`);
      const existing = itemId ? sub.items.data.find((x) => x.id === itemId) : null;
      if (itemId && !existing) noSuch('subscription_item', itemId, `items[${i}][id]`);
      if (existing && priceId) {
        const replacement = store.subscriptionItem(
          sub.id,
          { price: priceId, quantity: existing.quantity },
          sub.current_period_start,
          sub.current_period_end,
        );
        Object.assign(existing, { price: replacement.price, plan: replacement.plan });
      } else if (!existing && priceId) {
        sub.items.data.push(
          store.subscriptionItem(
            sub.id,
            { price: priceId, quantity: 1 },
            sub.current_period_start,
            sub.current_period_end,
          ),
        );
        sub.items.total_count = sub.items.data.length;
      }
    });
  }
  store.save();
  const cancel = bool(params, 'cancel_at_period_end');
  if (cancel !== null && cancel !== sub.cancel_at_period_end) {
    // setCancelAtPeriodEnd sends its own customer.subscription.updated (with the other changes in it).
    void store.setCancelAtPeriodEnd(sub.id, cancel);
  } else if (Object.keys(previous).length > 0) {
    void store.emit('customer.subscription.updated', sub, previous).delivered;
  }
  return sub;
}

function listSubscriptions(store: StripeStore, params: FormObject): Json {
  checkAllowed(params, [...listParams, 'customer', 'status', 'price']);
  const customer = str(params, 'customer');
  const status = str(params, 'status');
  const price = str(params, 'price');
  const subs = Object.values(store.state.subscriptions).filter(
    (s) =>
      (!customer || s.customer === customer) &&
      (status === 'all' ? true : status ? s.status === status : s.status !== 'canceled') &&
      (!price || s.items.data.some((i) => i.price.id === price)),
  );
  return paginate(subs, params, '/v1/subscriptions');
}

export const routes: Route[] = [
  { method: 'POST', pattern: /^\/v1\/customers$/, handler: (s, p) => createCustomer(s, p) },
  {
    method: 'GET',
    pattern: /^\/v1\/customers$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'email', 'created', 'test_clock']);
      const e = str(p, 'email');
      return paginate(
        liveCustomers(s).filter((c) => !e || c.email === e),
        p,
        '/v1/customers',
      );
    },
  },
  { method: 'GET', pattern: /^\/v1\/customers\/search$/, handler: (s, p) => searchCustomers(s, p) },
  {
    method: 'GET',
    pattern: /^\/v1\/customers\/([^/]+)$/,
    handler: (s, p, [id]) => {
      checkAllowed(p, []);
      const c = s.state.customers[id];
      if (!c) noSuch('customer', id);
      return c.deleted ? { id: c.id, object: 'customer', deleted: true } : c;
    },
  },
  { method: 'POST', pattern: /^\/v1\/customers\/([^/]+)$/, handler: (s, p, [id]) => updateCustomer(s, p, id) },
  {
    method: 'DELETE',
    pattern: /^\/v1\/customers\/([^/]+)$/,
    handler: (s, _p, [id]) => {
      const c = liveCustomer(s, id);
      c.deleted = true;
      s.save();
      return { id: c.id, object: 'customer', deleted: true };
    },
  },
  { method: 'GET', pattern: /^\/v1\/prices$/, handler: (s, p) => paginate([...s.prices.values()], p, '/v1/prices') },
  {
    method: 'GET',
    pattern: /^\/v1\/prices\/([^/]+)$/,
    handler: (s, _p, [id]) => s.prices.get(id) ?? noSuch('price', id),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/products\/([^/]+)$/,
    handler: (s, _p, [id]) => s.products.get(id) ?? noSuch('product', id),
  },
  { method: 'POST', pattern: /^\/v1\/checkout\/sessions$/, handler: (s, p) => createCheckoutSession(s, p) },
  {
    method: 'GET',
    pattern: /^\/v1\/checkout\/sessions$/,
    handler: (s, p) => {
      checkAllowed(p, [
        ...listParams,
        'customer',
        'subscription',
        'status',
        'payment_intent',
        'created',
        'customer_details',
        'payment_link',
      ]);
      const customer = str(p, 'customer');
      const subscription = str(p, 'subscription');
      const status = str(p, 'status');
      const sessions = Object.values(s.state.checkoutSessions)
        .map(refreshSession)
        .filter(
          (x) =>
            (!customer || x.customer === customer) &&
            (!subscription || x.subscription === subscription) &&
            (!status || x.status === status),
        );
      return paginate(sessions, p, '/v1/checkout/sessions');
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/,
    handler: (s, p, [id]) => {
      checkAllowed(p, []);
      return getSession(s, id);
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/,
    handler: (s, p, [id]) => {
      checkAllowed(p, [...listParams]);
      getSession(s, id);
      return s.lineItemsList(id);
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
    handler: (s, _p, [id]) => {
      const session = getSession(s, id);
      if (session.status !== 'open')
        fail(
          400,
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          'checkout_session_not_open',
        );
      session.status = 'expired';
      session.url = null;
      s.save();
      void s.emit('checkout.session.expired', session).delivered;
      return session;
    },
  },
  { method: 'POST', pattern: /^\/v1\/billing_portal\/sessions$/, handler: (s, p) => createPortalSession(s, p) },
  { method: 'GET', pattern: /^\/v1\/subscriptions$/, handler: (s, p) => listSubscriptions(s, p) },
  {
    method: 'GET',
    pattern: /^\/v1\/subscriptions\/([^/]+)$/,
    handler: (s, p, [id]) => {
      checkAllowed(p, []);
      return s.state.subscriptions[id] ?? noSuch('subscription', id);
    },
  },
  { method: 'POST', pattern: /^\/v1\/subscriptions\/([^/]+)$/, handler: (s, p, [id]) => updateSubscription(s, p, id) },
  {
    method: 'DELETE',
    pattern: /^\/v1\/subscriptions\/([^/]+)$/,
    handler: async (s, p, [id]) => {
      checkAllowed(p, ['cancellation_details', 'invoice_now', 'prorate']);
      const sub = s.state.subscriptions[id] ?? noSuch('subscription', id);
      if (sub.status === 'canceled') fail(400, `No such subscription: '${id}'`, 'resource_missing', 'id');
      void s.cancelNow(sub.id);
      return structuredClone({ ...sub, status: 'canceled' });
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/invoices$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'customer', 'subscription', 'status']);
      const customer = str(p, 'customer');
      const subscription = str(p, 'subscription');
      const status = str(p, 'status');
      const invoices = Object.values(s.state.invoices).filter(
        (x) =>
          (!customer || x.customer === customer) &&
          (!subscription || x.subscription === subscription) &&
          (!status || x.status === status),
      );
      return paginate(invoices, p, '/v1/invoices');
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/invoices\/([^/]+)$/,
    handler: (s, _p, [id]) => s.state.invoices[id] ?? noSuch('invoice', id),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/events$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'type', 'types', 'created', 'delivery_success']);
      const type = str(p, 'type');
      const events = s.state.eventOrder
        .map((id) => s.state.events[id]?.event)
        .filter((e) => e && (!type || e.type === type)) as Array<Json & { id: string; created: number }>;
      return paginate(events, p, '/v1/events');
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/events\/([^/]+)$/,
    handler: (s, _p, [id]) => s.state.events[id]?.event ?? noSuch('event', id),
  },
];

/** Runs a /v1 request; returns the JSON answer (expanded) or throws StripeApiError. */
export async function handleApi(store: StripeStore, request: ApiRequest): Promise<Json> {
  for (const route of routes) {
    if (route.method !== request.method) continue;
    const m = route.pattern.exec(request.path);
    if (!m) continue;
    const ids = m.slice(1).map((x) => decodeURIComponent(x));
    const result = await route.handler(store, request.params, ids);
    return applyExpand(store, result, expandPaths(request.params));
  }
  fail(
    404,
    `Unrecognized request URL (${request.method}: ${request.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  );
}
