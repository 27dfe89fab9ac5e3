// @vitest-environment jsdom
// Back from the portal's plan change before Stripe's webhook has landed: the dashboard keeps
// asking for the account until the tier changes (an upgrade) or a change is scheduled for the
// period's end (a downgrade), then reloads the episode stats (the new limit), says which, and
// drops the marker from the address. The network is a fake `fetch` and a fake subscriptions read.
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { createQueryClient } from '@/lib/query-client';
import { usePlanChangeReturn } from './use-plan-change-return';

/** The caller's subscription row as the database answers it: what is scheduled. */
let scheduledRow: { scheduled_tier: string | null; scheduled_change_at: string | null } = { scheduled_tier: null, scheduled_change_at: null };
let rowReads = 0;

vi.mock('@/lib/supabase', () => ({
  authClient: vi.fn(),
  database: vi.fn(() =>
    Promise.resolve({
      from: () => ({
        select: () => ({
          eq: () => ({
            maybeSingle: () => {
              rowReads += 1;
              return Promise.resolve({ data: scheduledRow, error: null });
            },
          }),
        }),
      }),
    }),
  ),
  currentAccessToken: vi.fn(() => Promise.resolve('a-stored-token')),
  hasStoredSession: () => true,
}));

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('@/lib/toast', () => ({ notify: toasts }));

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
let tierAfterLoads: (loads: number) => string = (loads) => (loads <= 2 ? 'starter' : 'growth');

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
  rowReads = 0;
  scheduledRow = { scheduled_tier: null, scheduled_change_at: null };
  tierAfterLoads = (loads) => (loads <= 2 ? 'starter' : 'growth');
  toasts.success.mockClear();
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
    expect(toasts.success).toHaveBeenCalledWith('Your plan is now the Growth Done-For-You Service.');
  });

  it('a downgrade keeps the tier: stops at the change scheduled for the period end and says when it starts', async () => {
    tierAfterLoads = () => 'scale';
    const queryClient = createQueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/dashboard?plan_changed_from=scale']}>
          <Probe />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('address').textContent).toBe('?plan_changed_from=scale');
    // The webhook lands: the row says what is scheduled.
    scheduledRow = { scheduled_tier: 'starter', scheduled_change_at: '2026-12-28T12:00:00Z' };
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await vi.waitFor(() => expect(screen.getByTestId('address').textContent).toBe(''));
    // Asked once a second until then, not ten times.
    expect(userLoads).toBe(3);
    expect(rowReads).toBe(3);
    expect(toasts.success).toHaveBeenCalledWith(expect.stringMatching(/^Your plan changes to the Starter Done-For-You Service on 2[89] December 2026\.$/));
    expect(queryClient.getQueryState(queryKeys.episodes.stats)).toBeUndefined();
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
