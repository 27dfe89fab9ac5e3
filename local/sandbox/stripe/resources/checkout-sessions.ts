// Checkout sessions: hosted, in subscription mode (recurring prices) or payment mode (one-time
// prices: the extra episode). Paying one (the hosted page) is the billing simulation's job; here
// are the API's create, list, retrieve, line items and expire.
import type { FormObject, FormValue } from '../../form.ts';
import {
  bool,
  checkAllowed,
  email,
  fail,
  int,
  listParams,
  metadataParam,
  noSuch,
  paginate,
  str,
  validUrl,
  type Route,
} from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { newId, nowSeconds, type Json, type Metadata } from '../primitives.ts';
import { customerDetails, liveCustomer } from './customers.ts';

export interface LineItemInput {
  price: string;
  quantity: number;
}

export interface CheckoutSession extends Json {
  id: string;
  object: 'checkout.session';
  created: number;
  expires_at: number;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  mode: string;
  customer: string | null;
  customer_email: string | null;
  customer_details: Json | null;
  subscription: string | null;
  invoice: string | null;
  success_url: string | null;
  cancel_url: string | null;
  url: string | null;
  metadata: Metadata;
  amount_total: number;
  currency: string;
}

function sessionAmount(sandbox: StripeSandbox, items: LineItemInput[]): number {
  return items.reduce((sum, item) => sum + (sandbox.state.anyPrice(item.price)?.unit_amount ?? 0) * item.quantity, 0);
}

/** A session's line items, as `GET .../line_items` and `expand[]=line_items` give them. */
export function lineItemsList(sandbox: StripeSandbox, sessionId: string): Json {
  const items = sandbox.state.data.lineItems[sessionId] ?? [];
  const data = items.map((item, index) => {
    const price = sandbox.state.anyPrice(item.price);
    const amount = (price?.unit_amount ?? 0) * item.quantity;
    return {
      id: `li_${sessionId.slice(-16)}${index}`,
      object: 'item',
      amount_discount: 0,
      amount_subtotal: amount,
      amount_tax: 0,
      amount_total: amount,
      currency: price?.currency ?? 'usd',
      adjustable_quantity: null,
      description: price ? (sandbox.state.products.get(price.product)?.name ?? price.id) : item.price,
      metadata: {},
      price: price ? structuredClone(price) : null,
      quantity: item.quantity,
    };
  });
  return { object: 'list', data, has_more: false, url: `/v1/checkout/sessions/${sessionId}/line_items` };
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

function lineItemsParam(sandbox: StripeSandbox, value: FormValue | undefined, mode: 'subscription' | 'payment'): LineItemInput[] {
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
    if (typeof price !== 'string' || !sandbox.state.anyPrice(price)) noSuch('price', String(price), `${param}[price]`);
    // Stripe's own refusals of a price of the wrong kind for the mode.
    if (mode === 'payment' && sandbox.state.prices.has(price))
      fail(400, 'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', 'checkout_session_recurring_price_in_payment_mode', `${param}[price]`);
    if (mode === 'subscription' && !sandbox.state.prices.has(price))
      fail(400, 'You must provide at least one recurring price in `subscription` mode when using prices.', 'parameter_invalid_string', `${param}[price]`);
    const quantity = int(raw.quantity, `${param}[quantity]`, 1, 999_999) ?? 1;
    return { price, quantity };
  });
}

/** `mode`: subscription or payment (setup is not Castloop's). */
function modeParam(params: FormObject): 'subscription' | 'payment' {
  const mode = str(params, 'mode', true);
  if (mode === 'subscription' || mode === 'payment') return mode;
  if (mode === 'setup') fail(400, `This sandbox supports the modes 'subscription' and 'payment' only.`, 'parameter_invalid_string', 'mode');
  return fail(400, `Invalid mode: must be one of payment, setup, or subscription`, 'parameter_invalid_string', 'mode');
}

function createCheckoutSession(sandbox: StripeSandbox, params: FormObject): Json {
  checkAllowed(params, sessionParams);
  const mode = modeParam(params);
  const uiMode = str(params, 'ui_mode');
  if (uiMode && uiMode !== 'hosted')
    fail(400, `This sandbox supports ui_mode 'hosted' only.`, 'parameter_invalid_string', 'ui_mode');
  const items = lineItemsParam(sandbox, params.line_items, mode);
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
  const customer = customerId ? liveCustomer(sandbox, customerId, 'customer') : null;
  const metadata = metadataParam(params.metadata, 'metadata');
  const subData = params.subscription_data;
  let subscriptionData: { metadata?: Metadata; description?: string } = {};
  if (subData !== undefined && mode === 'payment')
    fail(400, 'You can not pass `subscription_data` in `payment` mode.', 'parameter_invalid_string', 'subscription_data');
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
  const amount = sessionAmount(sandbox, items);
  const currency = sandbox.state.anyPrice(items[0].price)?.currency ?? 'usd';
  const session: CheckoutSession = {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allowed_payment_method_types: null,
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
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: customer?.id ?? null,
    customer_account: null,
    customer_creation: customer ? null : 'always',
    customer_details: customer ? customerDetails(customer) : null,
    customer_email: customerEmail,
    discounts: [],
    expires_at: expiresAt,
    invoice: null,
    integration_identifier: null,
    invoice_creation: null,
    livemode: false,
    locale: str(params, 'locale'),
    managed_payments: null,
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
    url: `${sandbox.baseUrl}/checkout/${id}`,
    wallet_options: null,
  };
  const data = sandbox.state.data;
  data.checkoutSessions[id] = session;
  data.lineItems[id] = items;
  data.subscriptionData[id] = subscriptionData;
  sandbox.state.save();
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

function getSession(sandbox: StripeSandbox, id: string): CheckoutSession {
  const session = sandbox.state.data.checkoutSessions[id];
  if (!session) noSuch('checkout.session', id);
  return refreshSession(session);
}

export const checkoutSessionRoutes: Route[] = [
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
      const sessions = Object.values(s.state.data.checkoutSessions)
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
      return lineItemsList(s, id);
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
      s.state.save();
      void s.events.emit('checkout.session.expired', session).delivered;
      return session;
    },
  },
];
