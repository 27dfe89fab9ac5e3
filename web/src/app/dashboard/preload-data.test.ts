import type { Account } from '@domain/account';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentAccountKey } from '@/lib/current-account';
import { createQueryClient } from '@/lib/query-client';
import { hasStoredSession } from '@/lib/supabase';
import { preloadDashboardData } from './preload-data';

vi.mock('@/lib/supabase', () => ({ hasStoredSession: vi.fn(), currentAccessToken: vi.fn(async () => 'token') }));

const dashboardPaths = ['/api/episodes/stats', '/api/episodes', '/api/oauth-connections', '/api/airtable/user-data'];
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
      if (path !== '/api/auth/user') return Promise.resolve(Response.json(path === '/api/episodes' ? [] : { path }));
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
    expect(queryClient.getQueryData(currentAccountKey)).toEqual(account());
    for (const path of dashboardPaths) expect(queryClient.getQueryData([path])).toBeDefined();
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
    for (const path of dashboardPaths) expect(queryClient.getQueryCache().find({ queryKey: [path], exact: true })).toBeUndefined();
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
