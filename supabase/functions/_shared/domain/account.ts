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
}

export type HomeDestination = '/dashboard' | '/onboarding' | '/subscribe';

/**
 * Subscription routing (spec section 4): not active -> /subscribe; active but not onboarded ->
 * /onboarding; active and onboarded -> the dashboard.
 */
export function homeDestination(account: Pick<Account, 'subscriptionStatus' | 'onboardingCompleted'>): HomeDestination {
  if (account.subscriptionStatus !== 'active') return '/subscribe';
  return account.onboardingCompleted ? '/dashboard' : '/onboarding';
}
