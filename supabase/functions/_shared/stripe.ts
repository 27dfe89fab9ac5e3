// The Stripe SDK for Deno. STRIPE_API_BASE points it at the local sandbox; unset, it talks to
// Stripe itself (docs/deploy.md).
import Stripe from 'stripe';
import { PLAN_TIERS } from './domain/plans.ts';
import { HttpError } from './http-error.ts';

export function stripeClient(): Stripe {
  const key = Deno.env.get('STRIPE_SECRET_KEY');
  if (!key) throw new HttpError(503, 'Payments are not configured');
  const options: Stripe.StripeConfig = { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 1 };
  const base = Deno.env.get('STRIPE_API_BASE');
  if (base) {
    const url = new URL(base);
    options.host = url.hostname;
    options.port = url.port || (url.protocol === 'https:' ? '443' : '80');
    options.protocol = url.protocol === 'https:' ? 'https' : 'http';
  }
  return new Stripe(key, options);
}

/** The configured Stripe price of each tier (secrets STRIPE_PRICE_STARTER, _GROWTH, _SCALE). */
export function priceIdsByTier(): Record<string, string> {
  const prices: Record<string, string> = {};
  for (const tier of PLAN_TIERS) {
    const id = Deno.env.get(`STRIPE_PRICE_${tier.toUpperCase()}`);
    if (id) prices[tier] = id;
  }
  return prices;
}

export function tierForPrice(priceId: string | null | undefined): string | null {
  if (!priceId) return null;
  return Object.entries(priceIdsByTier()).find(([, id]) => id === priceId)?.[0] ?? null;
}
