// @vitest-environment jsdom
// Back from the portal's plan change before Stripe's webhook has landed: the dashboard keeps
// asking for the account until the tier changes, then reloads the episode stats (the new limit)
// and drops the marker from the address. The network is a fake `fetch`.
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { createQueryClient } from '@/lib/query-client';
import { usePlanChangeReturn } from './use-plan-change-return';

vi.mock('@/lib/supabase', () => ({
  authClient: vi.fn(),
  database: vi.fn(),
  currentAccessToken: vi.fn(() => Promise.resolve('a-stored-token')),
  hasStoredSession: () => true,
}));

const account = (tier: string) => ({
  id: 'u1',
  email: 'a@example.com',
  firstName: 'Ada',
  lastName: null,
  profileImageUrl: null,
  subscriptionStatus: 'active',
  subscriptionTier: tier,
  onboardingCompleted: true,
  stripeCustomerId: 'cus_1',
  postAutomatically: true,
  isAdmin: false,
});

let userLoads = 0;
/** The webhook lands after the second load of the user. */
const tierAfterLoads = (loads: number) => (loads <= 2 ? 'starter' : 'growth');

function fakeFetch(input: RequestInfo | URL): Promise<Response> {
  if (String(input).startsWith('/api/auth/user')) {
    userLoads += 1;
    return Promise.resolve(Response.json(account(tierAfterLoads(userLoads))));
  }
  return Promise.resolve(Response.json({ message: 'not here' }, { status: 404 }));
}

function Probe() {
  usePlanChangeReturn();
  return <p data-testid="address">{useLocation().search}</p>;
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  userLoads = 0;
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('returning from the plan change', () => {
  it('waits for the new tier, then reloads the stats and drops plan_changed_from', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(queryKeys.episodes.stats, { limit: 1, subscriptionTier: 'starter' });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/dashboard?plan_changed_from=starter&tab=x']}>
          <Probe />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(1000));
    // Still the old tier: the stats are left alone and the marker stays.
    expect(queryClient.getQueryState(queryKeys.episodes.stats)?.isInvalidated).toBe(false);
    expect(screen.getByTestId('address').textContent).toBe('?plan_changed_from=starter&tab=x');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await vi.waitFor(() => expect(screen.getByTestId('address').textContent).toBe('?tab=x'));
    expect(userLoads).toBe(3);
    expect(queryClient.getQueryState(queryKeys.episodes.stats)?.isInvalidated).toBe(true);
  });

  it('does nothing without the marker', async () => {
    const queryClient = createQueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/dashboard']}>
          <Probe />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(userLoads).toBe(0);
  });
});
