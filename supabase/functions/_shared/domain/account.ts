// The signed-in user as the spec's client sees it (section 3), and where such a user belongs.

export interface Account {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  subscriptionStatus: string | null;
  subscriptionTier: string | null;
  onboardingCompleted: boolean;
  stripeCustomerId: string | null;
  postAutomatically: boolean;
  /** Decided by the database (is_admin()); the SPA only uses it to show the way to the console. */
  isAdmin: boolean;
}

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
