// The signed-in user as the spec's client sees it (section 3), and where such a user belongs.
// zod/mini: the SPA parses every account it loads, and this keeps its entry chunk small.
import { z } from 'zod/mini';

/**
 * What `current_account()` returns (its latest migration), parsed on both sides: by the `api`
 * function before it answers, and by the SPA when it loads /api/auth/user.
 */
export const accountSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  profileImageUrl: z.nullable(z.string()),
  subscriptionStatus: z.nullable(z.string()),
  subscriptionTier: z.nullable(z.string()),
  onboardingCompleted: z.boolean(),
  stripeCustomerId: z.nullable(z.string()),
  postAutomatically: z.boolean(),
  /** Decided by the database (is_admin()); the SPA only uses it to show the way to the console. */
  isAdmin: z.boolean(),
});

export type Account = z.infer<typeof accountSchema>;

/** The administrators' console (spec section 2); its access is enforced by the server. */
export const ADMIN_CONSOLE_PATH = '/admin/episodes/resubmit';

export type HomeDestination = '/dashboard' | '/onboarding' | '/subscribe' | typeof ADMIN_CONSOLE_PATH;

/**
 * Subscription routing (spec section 4): not active -> /subscribe; active but not onboarded ->
 * /onboarding; active and onboarded -> the dashboard. An administrator without an active
 * subscription has no use for the plans page: their home is the admin console.
 */
export function homeDestination(
  account: Pick<Account, 'subscriptionStatus' | 'onboardingCompleted'> & Partial<Pick<Account, 'isAdmin'>>,
): HomeDestination {
  if (account.subscriptionStatus !== 'active') return account.isAdmin ? ADMIN_CONSOLE_PATH : '/subscribe';
  return account.onboardingCompleted ? '/dashboard' : '/onboarding';
}
