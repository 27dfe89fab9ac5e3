// Prices and products: fixed, one monthly price per Castloop tier, and the one-time price of an
// extra episode (from the settings).
import { noSuch, paginate, type Route } from '../request.ts';
import type { OneTimePriceSetting, PriceSetting } from '../settings.ts';
import type { Json } from '../primitives.ts';

/** What a price is, recurring or paid once. */
interface PriceBase extends Json {
  id: string;
  object: 'price';
  created: number;
  product: string;
  unit_amount: number;
  currency: string;
}

export interface Price extends PriceBase {
  recurring: { interval: string; interval_count: number } & Json;
}

/** A price paid once (Checkout in payment mode); it never bills a subscription. */
export interface OneTimePrice extends PriceBase {
  recurring: null;
  type: 'one_time';
}

export interface Product extends Json {
  id: string;
  object: 'product';
  name: string;
}

function productIdFor(p: PriceSetting): string {
  return `prod_castloop_${p.tier}`;
}

/** What every price shows, recurring or one-time. */
function priceFields(p: { id: string; currency: string; productName: string; unitAmount: number }, created: number, key: string, metadata: Record<string, string>, productId: string) {
  return {
    id: p.id,
    object: 'price' as const,
    active: true,
    billing_scheme: 'per_unit' as const,
    created,
    currency: p.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: `castloop_${key}`,
    metadata,
    nickname: p.productName,
    product: productId,
    tax_behavior: 'unspecified' as const,
    tiers_mode: null,
    transform_quantity: null,
    unit_amount: p.unitAmount,
    unit_amount_decimal: String(p.unitAmount),
  };
}

export function buildPrice(p: PriceSetting, created: number): Price {
  return {
    ...priceFields(p, created, p.tier, { tier: p.tier }, productIdFor(p)),
    recurring: {
      interval: p.interval,
      interval_count: 1,
      meter: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    type: 'recurring',
  };
}

/** A product as Stripe shows it, with its default price. */
function product(id: string, name: string, defaultPrice: string, metadata: Record<string, string>, created: number): Product {
  return {
    id,
    object: 'product',
    active: true,
    created,
    default_price: defaultPrice,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata,
    name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: created,
    url: null,
  };
}

export function buildProduct(p: PriceSetting, created: number): Product {
  return product(productIdFor(p), p.productName, p.id, { tier: p.tier }, created);
}

export function buildOneTimePrice(p: OneTimePriceSetting, created: number): { price: OneTimePrice; product: Product } {
  const productId = `prod_castloop_${p.key}`;
  return {
    price: { ...priceFields(p, created, p.key, { purpose: p.key }, productId), recurring: null, type: 'one_time' },
    product: product(productId, p.productName, p.id, { purpose: p.key }, created),
  };
}

/** The legacy `plan` a subscription item carries beside its price. */
export function planOf(price: Price): Json {
  return {
    id: price.id,
    object: 'plan',
    active: true,
    amount: price.unit_amount,
    amount_decimal: String(price.unit_amount),
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: price.recurring.interval,
    interval_count: price.recurring.interval_count,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: null,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export const priceRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/prices$/,
    handler: (s, p) => paginate([...s.state.prices.values(), ...s.state.oneTimePrices.values()], p, '/v1/prices'),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/prices\/([^/]+)$/,
    handler: (s, _p, [id]) => s.state.prices.get(id) ?? s.state.oneTimePrices.get(id) ?? noSuch('price', id),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/products\/([^/]+)$/,
    handler: (s, _p, [id]) => s.state.products.get(id) ?? noSuch('product', id),
  },
];
