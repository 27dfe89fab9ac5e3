// The billing portal configuration that lets a subscriber change plan: Stripe's default portal
// offers no plan change until a configuration lists the products and prices to move between.
// The api ensures one for the configured STRIPE_PRICE_* and the plan-change rules below (found by
// its metadata, created once), so a new price set or new rules get their own configuration
// without a deploy step (docs/deploy.md).
import type Stripe from 'stripe';
import { PLAN_TIERS } from '../../_shared/domain/plans.ts';
import { priceIdsByTier, stripeClient } from '../../_shared/stripe.ts';

/** Metadata key naming the price set a configuration was made for. */
const PRICE_SET_KEY = 'castloop_plan_prices';
/** Metadata key naming the plan-change rules it applies; a configuration of other rules is not used. */
const RULES_KEY = 'castloop_plan_change_rules';
/**
 * A lower price waits for the end of the period paid for (a subscription schedule); a higher one
 * starts a new period at once, paid in full less the old price's unused time (docs/decisions.md,
 * "Billing").
 */
const RULES = 'downgrade-at-period-end,upgrade-starts-period';

/** Per function instance: price set -> configuration id. */
const known = new Map<string, string>();

function priceSet(): string {
  const prices = priceIdsByTier();
  return PLAN_TIERS.map((tier) => `${tier}:${prices[tier] ?? ''}`).join(',');
}

async function findExisting(stripe: Stripe, set: string): Promise<string | null> {
  for await (const config of stripe.billingPortal.configurations.list({ active: true, limit: 100 })) {
    if (config.metadata?.[PRICE_SET_KEY] === set && config.metadata?.[RULES_KEY] === RULES) return config.id;
  }
  return null;
}

async function create(stripe: Stripe, set: string): Promise<string> {
  const prices = await Promise.all(PLAN_TIERS.map((tier) => stripe.prices.retrieve(priceIdsByTier()[tier])));
  // Stripe lists prices under their product.
  const byProduct = new Map<string, string[]>();
  for (const price of prices) {
    const product = typeof price.product === 'string' ? price.product : price.product.id;
    byProduct.set(product, [...(byProduct.get(product) ?? []), price.id]);
  }
  const config = await stripe.billingPortal.configurations.create(
    {
      features: {
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['price'],
          // Downgrades: scheduled for the period's end, so the higher plan paid for lasts until then.
          schedule_at_period_end: { conditions: [{ type: 'decreasing_item_amount' }] },
          // Upgrades: a new period starts now, invoiced and paid now (Stripe's default is 'none').
          billing_cycle_anchor: 'now',
          proration_behavior: 'always_invoice',
          products: [...byProduct].map(([product, ids]) => ({ product, prices: ids })),
        },
        subscription_cancel: { enabled: true, mode: 'at_period_end' },
        payment_method_update: { enabled: true },
        invoice_history: { enabled: true },
      },
      metadata: { [PRICE_SET_KEY]: set, [RULES_KEY]: RULES },
    },
    // Two instances starting at once create one configuration.
    { idempotencyKey: `castloop-portal-configuration-${set}-${RULES}` },
  );
  return config.id;
}

/** The id of the plan-change portal configuration for the current prices. */
export async function planChangeConfiguration(): Promise<string> {
  const set = priceSet();
  const cached = known.get(set);
  if (cached) return cached;
  const stripe = stripeClient();
  const id = (await findExisting(stripe, set)) ?? (await create(stripe, set));
  known.set(set, id);
  return id;
}
