import { describe, expect, it } from 'vitest';
import { accountSchema, homeDestination } from './account.ts';

describe('homeDestination', () => {
  it.each([
    [null, false, '/subscribe'],
    [null, true, '/subscribe'],
    ['canceled', true, '/subscribe'],
    ['past_due', true, '/subscribe'],
    ['active', false, '/onboarding'],
    ['active', true, '/dashboard'],
  ])('status %s, onboarded %s -> %s', (subscriptionStatus, onboardingCompleted, expected) => {
    expect(homeDestination({ subscriptionStatus, onboardingCompleted })).toBe(expected);
  });

  it.each([
    [null, false, '/admin/episodes/resubmit'],
    ['canceled', true, '/admin/episodes/resubmit'],
    ['active', false, '/onboarding'],
    ['active', true, '/dashboard'],
  ])('an administrator with status %s, onboarded %s -> %s', (subscriptionStatus, onboardingCompleted, expected) => {
    expect(homeDestination({ subscriptionStatus, onboardingCompleted, isAdmin: true })).toBe(expected);
  });
});

describe('accountSchema', () => {
  const account = {
    id: '00000000-0000-0000-0000-000000000001',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: null,
    profileImageUrl: null,
    subscriptionStatus: 'active',
    subscriptionTier: 'growth',
    onboardingCompleted: true,
    stripeCustomerId: 'cus_1',
    postAutomatically: false,
    isAdmin: false,
  };

  it('accepts the account current_account() builds', () => {
    expect(accountSchema.parse(account)).toEqual(account);
  });

  it.each(['isAdmin', 'onboardingCompleted', 'email'])('refuses an account without %s', (key) => {
    const { [key as keyof typeof account]: _dropped, ...rest } = account;
    expect(accountSchema.safeParse(rest).success).toBe(false);
  });

  it('refuses a wrongly typed field', () => {
    expect(accountSchema.safeParse({ ...account, isAdmin: 'yes' }).success).toBe(false);
  });
});
