// Stripe object shapes as the API returns them (the fields Castloop and the SDK's types use,
// with Stripe's id prefixes, `object`, `created` in unix seconds and `livemode: false`).
import { randomBytes } from 'node:crypto';
import type { PriceSetting } from './settings.ts';

export type Json = Record<string, unknown>;
export type Metadata = Record<string, string>;

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A Stripe-looking id: `prefix` + 24 random base62 characters. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `${prefix}${out}`;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The same day and time one calendar month later (clamped to the month's last day). */
export function addMonths(unixSeconds: number, months: number): number {
  const d = new Date(unixSeconds * 1000);
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

export interface Customer extends Json {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  name: string | null;
  phone: string | null;
  description: string | null;
  metadata: Metadata;
  deleted?: true;
}

export interface Price extends Json {
  id: string;
  object: 'price';
  created: number;
  product: string;
  unit_amount: number;
  currency: string;
  recurring: { interval: string; interval_count: number } & Json;
}

export interface Product extends Json {
  id: string;
  object: 'product';
  name: string;
}

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

export interface SubscriptionItem extends Json {
  id: string;
  object: 'subscription_item';
  price: Price;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
  subscription: string;
}

export interface Subscription extends Json {
  id: string;
  object: 'subscription';
  created: number;
  customer: string;
  status: 'active' | 'past_due' | 'canceled' | 'incomplete' | 'unpaid' | 'trialing';
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  current_period_start: number;
  current_period_end: number;
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; total_count: number; url: string };
  latest_invoice: string | null;
  metadata: Metadata;
}

export interface Invoice extends Json {
  id: string;
  object: 'invoice';
  created: number;
  customer: string;
  subscription: string | null;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
}

export interface PortalSession extends Json {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string | null;
  url: string;
}

export interface StripeEvent extends Json {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: Json; previous_attributes?: Json };
}

export function buildPrice(p: PriceSetting, created: number): Price {
  return {
    id: p.id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created,
    currency: p.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: `castloop_${p.tier}`,
    metadata: { tier: p.tier },
    nickname: p.productName,
    product: productIdFor(p),
    recurring: {
      interval: p.interval,
      interval_count: 1,
      meter: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: p.unitAmount,
    unit_amount_decimal: String(p.unitAmount),
  };
}

export function productIdFor(p: PriceSetting): string {
  return `prod_castloop_${p.tier}`;
}

export function buildProduct(p: PriceSetting, created: number): Product {
  return {
    id: productIdFor(p),
    object: 'product',
    active: true,
    created,
    default_price: p.id,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: { tier: p.tier },
    name: p.productName,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    updated: created,
    url: null,
  };
}

export function buildCustomer(fields: {
  email: string | null;
  name: string | null;
  phone: string | null;
  description: string | null;
  metadata: Metadata;
}): Customer {
  const created = nowSeconds();
  return {
    id: newId('cus_', 14),
    object: 'customer',
    address: null,
    balance: 0,
    created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: fields.description,
    discount: null,
    email: fields.email,
    invoice_prefix: newId('', 8).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: fields.metadata,
    name: fields.name,
    next_invoice_sequence: 1,
    phone: fields.phone,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

/** A checkout session's `customer_details`, from the customer who pays. */
export function customerDetails(customer: Customer): Json {
  return {
    address: null,
    business_name: null,
    email: customer.email,
    individual_name: null,
    name: customer.name,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
}

/** `{ object: 'list', ... }` as every Stripe list endpoint returns it. */
export function list<T>(url: string, data: T[], hasMore = false): Json {
  return { object: 'list', data, has_more: hasMore, url };
}

/** Formats an amount in the smallest currency unit: 19900 usd -> "$199.00". */
export function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
}
