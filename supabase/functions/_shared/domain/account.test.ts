import { describe, expect, it } from 'vitest';
import { homeDestination } from './account.ts';

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
