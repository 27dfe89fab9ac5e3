import { describe, expect, it } from 'vitest';
import { decideAccess, isOpenToAnyone } from './access';

const states = {
  noSubscription: { subscriptionStatus: null, onboardingCompleted: false },
  canceled: { subscriptionStatus: 'canceled', onboardingCompleted: true },
  pastDue: { subscriptionStatus: 'past_due', onboardingCompleted: false },
  activeNew: { subscriptionStatus: 'active', onboardingCompleted: false },
  activeOnboarded: { subscriptionStatus: 'active', onboardingCompleted: true },
};

describe('decideAccess for logged-out visitors', () => {
  it.each(['/register', '/login', '/forgot-password', '/reset-password', '/admin/episodes/resubmit'])('renders %s', (path) => {
    expect(decideAccess(path, null)).toEqual({ kind: 'render' });
  });
  it.each(['/', '/subscribe', '/onboarding', '/done', '/no-such-page'])('sends %s to /login', (path) => {
    expect(decideAccess(path, null)).toEqual({ kind: 'redirect', to: '/login' });
  });
  it("renders /dashboard, which says 'Unauthorized' and goes to / itself", () => {
    expect(decideAccess('/dashboard', null)).toEqual({ kind: 'render' });
  });
});

describe('decideAccess for signed-in users', () => {
  const table: Array<[keyof typeof states, string, string | 'render']> = [
    ['noSubscription', '/', '/subscribe'],
    ['noSubscription', '/dashboard', '/subscribe'],
    ['noSubscription', '/onboarding', '/subscribe'],
    ['noSubscription', '/subscribe', 'render'],
    ['canceled', '/', '/subscribe'],
    ['canceled', '/dashboard', '/subscribe'],
    ['canceled', '/onboarding', '/subscribe'],
    ['pastDue', '/', '/subscribe'],
    ['activeNew', '/', '/onboarding'],
    ['activeNew', '/dashboard', '/onboarding'],
    ['activeNew', '/onboarding', 'render'],
    ['activeNew', '/subscribe', 'render'],
    ['activeOnboarded', '/', 'render'],
    ['activeOnboarded', '/dashboard', 'render'],
    ['activeOnboarded', '/onboarding', '/dashboard'],
    ['activeOnboarded', '/subscribe', 'render'],
    ['activeOnboarded', '/done', 'render'],
    ['activeOnboarded', '/no-such-page', 'render'],
    ['activeOnboarded', '/admin/episodes/resubmit', 'render'],
    ['activeNew', '/login', '/'],
    ['noSubscription', '/register', '/'],
    ['activeOnboarded', '/forgot-password', '/'],
    ['activeOnboarded', '/reset-password', 'render'],
  ];
  it.each(table)('%s visiting %s -> %s', (state, path, expected) => {
    const decision = decideAccess(path, states[state]);
    expect(decision).toEqual(expected === 'render' ? { kind: 'render' } : { kind: 'redirect', to: expected });
  });

  it('ignores a trailing slash', () => {
    expect(decideAccess('/dashboard/', states.activeNew)).toEqual({ kind: 'redirect', to: '/onboarding' });
  });
});

describe('decideAccess for an administrator', () => {
  const admin = { subscriptionStatus: null, onboardingCompleted: false, isAdmin: true };
  it.each([
    ['/', '/admin/episodes/resubmit'],
    ['/dashboard', '/admin/episodes/resubmit'],
    ['/onboarding', '/admin/episodes/resubmit'],
    ['/login', '/'],
  ])('without a subscription, %s -> %s', (path, expected) => {
    expect(decideAccess(path, admin)).toEqual({ kind: 'redirect', to: expected });
  });
  it.each(['/admin/episodes/resubmit', '/subscribe'])('without a subscription, renders %s', (path) => {
    expect(decideAccess(path, admin)).toEqual({ kind: 'render' });
  });
  it('with an active, onboarded subscription, sees the dashboard at /', () => {
    expect(decideAccess('/', { ...admin, subscriptionStatus: 'active', onboardingCompleted: true })).toEqual({ kind: 'render' });
  });
});

describe('isOpenToAnyone', () => {
  it('is true only for the screens every visitor sees', () => {
    expect(['/reset-password', '/admin/episodes/resubmit'].map(isOpenToAnyone)).toEqual([true, true]);
    expect(['/', '/dashboard', '/login', '/subscribe', '/no-such-page'].map(isOpenToAnyone)).toEqual([false, false, false, false, false]);
  });
});
