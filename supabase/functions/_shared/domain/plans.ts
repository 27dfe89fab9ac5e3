// Plan tiers (spec sections 1 and 9): names, titles, and which tiers exist.
export const PLAN_TIERS = ['starter', 'growth', 'scale'] as const;
type PlanTier = (typeof PLAN_TIERS)[number];

/** The largest plan: nothing to upgrade to, so it buys one more episode instead (issue 43, item 4). */
export const HIGHEST_PLAN_TIER: PlanTier = PLAN_TIERS[PLAN_TIERS.length - 1];

export const isHighestPlan = (tier: string | null | undefined) => tier === HIGHEST_PLAN_TIER;

/** The Checkout session's metadata `purpose` of an extra episode (the webhook records only these). */
export const EXTRA_EPISODE_PURPOSE = 'extra_episode';

/** Where Checkout sends the browser after buying an extra episode: the dashboard with this marker. */
export const EXTRA_EPISODE_RETURN_PARAM = 'extra_episode';

/**
 * Where the billing portal sends the browser after a plan change: the dashboard with the tier it
 * changed from, so the app knows what to wait for.
 */
export const PLAN_CHANGED_FROM_PARAM = 'plan_changed_from';

export function isPlanTier(value: unknown): value is PlanTier {
  return typeof value === 'string' && (PLAN_TIERS as readonly string[]).includes(value);
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The title shown for a tier: the product tiers carry the done-for-you service suffix, any other
 * tier (e.g. enterprise) is capitalised with 'Plan', and no tier is 'No Plan'.
 */
export function planTitle(tier: string | null | undefined): string {
  if (!tier) return 'No Plan';
  if (isPlanTier(tier)) return `${capitalise(tier)} Done-For-You Service`;
  return `${capitalise(tier)} Plan`;
}

/** Whole dollars from cents, as the plans page shows them: 119900 -> '$1,199'. */
export function formatPrice(cents: number): string {
  return `$${Math.round(cents / 100).toLocaleString('en-US')}`;
}

/**
 * The day a scheduled plan change starts, as the app says it: '28 December 2026'. In the reader's
 * time zone in the SPA; the server names UTC.
 */
export function formatChangeDay(at: string | Date, timeZone?: string): string {
  return new Date(at).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone });
}
