// The Stripe settings of the local stack, from config.env with local defaults.
// `.env.example` documents them; `stripeFunctionEnv` is what the Edge Functions should get.
import type { StackConfig } from '../../config.ts';

type Tier = 'starter' | 'growth' | 'scale';

export interface PriceSetting {
  tier: Tier;
  id: string;
  productName: string;
  unitAmount: number;
  currency: 'usd';
  interval: 'month';
}

/** A one-time price (Checkout in payment mode): the extra episode a Scale subscriber may buy. */
export interface OneTimePriceSetting {
  key: 'extra_episode';
  id: string;
  productName: string;
  unitAmount: number;
  currency: 'usd';
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Where Castloop's SDK goes: the sandbox URL, or '' for real Stripe. */
  apiBase: string;
  webhookUrl: string;
  prices: PriceSetting[];
  oneTimePrices: OneTimePriceSetting[];
  /** Seconds after a failed delivery at which it is retried; empty: no automatic retries. */
  retrySeconds: number[];
}

function value(config: StackConfig, key: string, fallback: string): string {
  const v = config.env[key];
  return v === undefined || v === '' ? fallback : v;
}

export function stripeSettings(config: StackConfig): StripeSettings {
  const rawBase = config.env.STRIPE_API_BASE;
  // Tests always use their own sandbox (its port is shifted); in dev an explicitly empty
  // STRIPE_API_BASE means real Stripe.
  const apiBase = config.profile === 'test' || rawBase === undefined ? config.urls.sandbox : rawBase;
  const retry = config.env.STRIPE_SANDBOX_RETRY_SECONDS ?? '10,60,300';
  return {
    secretKey: value(config, 'STRIPE_SECRET_KEY', 'sk_test_castloop_local'),
    webhookSecret: value(config, 'STRIPE_WEBHOOK_SECRET', 'whsec_castloop_local'),
    apiBase,
    webhookUrl: value(config, 'STRIPE_WEBHOOK_URL', `${config.urls.api}/functions/v1/stripe-webhook`),
    prices: [
      {
        tier: 'starter',
        id: value(config, 'STRIPE_PRICE_STARTER', 'price_local_starter'),
        productName: 'Castloop Starter',
        unitAmount: 19900,
        currency: 'usd',
        interval: 'month',
      },
      {
        tier: 'growth',
        id: value(config, 'STRIPE_PRICE_GROWTH', 'price_local_growth'),
        productName: 'Castloop Growth',
        unitAmount: 49900,
        currency: 'usd',
        interval: 'month',
      },
      {
        tier: 'scale',
        id: value(config, 'STRIPE_PRICE_SCALE', 'price_local_scale'),
        productName: 'Castloop Scale',
        unitAmount: 119900,
        currency: 'usd',
        interval: 'month',
      },
    ],
    oneTimePrices: [
      {
        key: 'extra_episode',
        id: value(config, 'STRIPE_PRICE_EXTRA_EPISODE', 'price_local_extra_episode'),
        productName: 'Castloop Extra Episode',
        unitAmount: 29900,
        currency: 'usd',
      },
    ],
    retrySeconds: retry
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isFinite(n) && n > 0),
  };
}

/**
 * The Stripe variables the Edge Functions need, resolved for this stack (the test profile's
 * sandbox port differs from `.env.example`'s). Spread into the functions' env.
 */
export function stripeFunctionEnv(config: StackConfig): Record<string, string> {
  const s = stripeSettings(config);
  const byTier = Object.fromEntries(s.prices.map((p) => [`STRIPE_PRICE_${p.tier.toUpperCase()}`, p.id]));
  return {
    STRIPE_SECRET_KEY: s.secretKey,
    STRIPE_WEBHOOK_SECRET: s.webhookSecret,
    STRIPE_API_BASE: s.apiBase,
    ...byTier,
    STRIPE_PRICE_EXTRA_EPISODE: s.oneTimePrices[0].id,
  };
}
