// The signed-in account the SPA's component tests start from (an active growth subscriber, onboarded).
import type { Account } from '@domain/account';

export function testAccount(changes: Partial<Account> = {}): Account {
  return {
    id: 'u1',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    profileImageUrl: null,
    subscriptionStatus: 'active',
    subscriptionTier: 'growth',
    onboardingCompleted: true,
    stripeCustomerId: null,
    postAutomatically: false,
    isAdmin: false,
    ...changes,
  };
}
