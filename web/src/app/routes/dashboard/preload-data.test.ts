import type { Account } from '@domain/account';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { hasStoredSession } from '@/lib/supabase';
import { preloadDashboardData } from './preload-data';

vi.mock('@/lib/supabase', () => ({ hasStoredSession: vi.fn(), currentAccessToken: vi.fn(async () => 'token') }));

// Each dashboard read, its answer and the key it is cached under.
const stats = {
  thisMonth: 0,
  total: 0,
  currentCount: 0,
  limit: 4,
  subscriptionTier: 'growth',
  canSubmit: true,
  blockReason: null,
  hostingSetup: true,
  hostingSetupStartedAt: null,
  onboardingCompleted: true,
  socialConnected: true,
};
const dashboardReads = [
  { path: '/api/episodes/stats', answer: stats, key: queryKeys.episodes.stats },
  { path: '/api/episodes', answer: [], key: queryKeys.episodes.all },
  { path: '/api/oauth-connections', answer: [], key: queryKeys.connections },
  { path: '/api/airtable/user-data', answer: null, key: queryKeys.profile },
];
const dashboardPaths = dashboardReads.map((read) => read.path);
const account = (changes: Partial<Account> = {}): Account => ({
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: null,
  profileImageUrl: null,
  subscriptionStatus: 'active',
  subscriptionTier: 'growth',
  onboardingCompleted: true,
  stripeCustomerId: null,
  postAutomatically: false,
  isAdmin: false,
  ...changes,
});

/** A server whose signed-in user request answers only when `answerUser` is called. */
function server(user: Account | null) {
  const requested: string[] = [];
  let answerUser = () => {};
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string) => {
      requested.push(path);
      if (path !== '/api/auth/user') return Promise.resolve(Response.json(dashboardReads.find((read) => read.path === path)?.answer));
      return new Promise<Response>((resolve) => {
        answerUser = () => resolve(user ? Response.json(user) : new Response('{"message":"Unauthorized"}', { status: 401 }));
      });
    }),
  );
  return { requested, answerUser: () => answerUser() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('dashboard data at startup', () => {
  beforeEach(() => vi.mocked(hasStoredSession).mockReturnValue(true));
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the dashboard data beside the signed-in user, and keeps it when the dashboard is shown', async () => {
    const { requested, answerUser } = server(account());
    const queryClient = createQueryClient();
    preloadDashboardData(queryClient, '/dashboard');
    await settle();
    expect(requested.sort()).toEqual(['/api/auth/user', ...dashboardPaths].sort());
    answerUser();
    await settle();
    expect(queryClient.getQueryData(queryKeys.account)).toEqual(account());
    for (const { key, answer } of dashboardReads) expect(queryClient.getQueryData(key)).toEqual(answer);
  });

  it.each([
    ['a stale session (signed out)', null],
    ['an account whose home is onboarding', account({ onboardingCompleted: false })],
  ])('keeps none of it for %s', async (_case, user) => {
    const { answerUser } = server(user);
    const queryClient = createQueryClient();
    preloadDashboardData(queryClient, '/');
    await settle();
    answerUser();
    await settle();
    for (const { key } of dashboardReads) expect(queryClient.getQueryCache().find({ queryKey: key, exact: true })).toBeUndefined();
  });

  it('asks for nothing without a stored session or away from the dashboard', async () => {
    const { requested } = server(null);
    vi.mocked(hasStoredSession).mockReturnValue(false);
    preloadDashboardData(createQueryClient(), '/dashboard');
    vi.mocked(hasStoredSession).mockReturnValue(true);
    preloadDashboardData(createQueryClient(), '/subscribe');
    await settle();
    expect(requested).toEqual([]);
  });
});
