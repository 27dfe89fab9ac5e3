// The Stripe SDK for Deno. STRIPE_API_BASE points it at the local sandbox; unset, it talks to
// Stripe itself (docs/deploy.md).
import Stripe from 'stripe';
import { settings } from './config.ts';

export function stripeClient(): Stripe {
  const options: Stripe.StripeConfig = { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 1 };
  const url = settings().stripe.apiBase;
  if (url) {
    options.host = url.hostname;
    options.port = url.port || (url.protocol === 'https:' ? '443' : '80');
    options.protocol = url.protocol === 'https:' ? 'https' : 'http';
  }
  return new Stripe(settings().stripe.secretKey, options);
}

/** The configured Stripe price of each tier (secrets STRIPE_PRICE_STARTER, _GROWTH, _SCALE). */
export function priceIdsByTier(): Record<string, string> {
  return settings().stripe.priceIds;
}

export function tierForPrice(priceId: string | null | undefined): string | null {
  if (!priceId) return null;
  return Object.entries(priceIdsByTier()).find(([, id]) => id === priceId)?.[0] ?? null;
}

/** Statuses in which a Stripe subscription gives its plan (and bills for it). */
export function isLiveSubscription(status: string): boolean {
  return status === 'active' || status === 'trialing';
}
