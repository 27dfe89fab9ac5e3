// @vitest-environment jsdom
// The signed-in app when the user load fails (issue 23, item 4): a server error or a failed
// network shows a message and a 'Try again' button and sends no further request until the
// person presses it; only a 401 means signed out (the 'Unauthorized' toast). The network is a
// fake `fetch` that counts every request.
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { createQueryClient } from '@/lib/query-client';
import { preloadScreenData } from './preload-data';
import { Notifications } from './notifications';
import { dashboardPage } from './route-table';
import { AppRoutes } from './router';
import { appTexts } from './texts';

vi.mock('@/lib/supabase', () => ({
  authClient: vi.fn(),
  database: vi.fn(),
  currentAccessToken: vi.fn(() => Promise.resolve('a-stored-token')),
  hasStoredSession: () => true,
}));

type Answer = 'network' | number;
const userRequests: string[] = [];
let userAnswer: Answer;

function fakeFetch(input: RequestInfo | URL): Promise<Response> {
  const path = String(input);
  if (path.startsWith('/api/auth/user')) {
    userRequests.push(path);
    if (userAnswer === 'network') return Promise.reject(new TypeError('Failed to fetch'));
    return Promise.resolve(Response.json({ message: userAnswer === 401 ? 'Unauthorized' : 'Bad gateway' }, { status: userAnswer }));
  }
  return Promise.resolve(Response.json({ message: 'Bad gateway' }, { status: 502 }));
}

/**
 * The app as main.tsx starts it: the dashboard's loads begin before the first render, and (as in a
 * browser still downloading the screen's code) the user load has failed by the time it renders.
 */
async function renderApp(path: string) {
  const queryClient = createQueryClient();
  preloadScreenData(queryClient, path);
  if (queryClient.getQueryState(queryKeys.account)) await vi.waitFor(() => expect(queryClient.getQueryState(queryKeys.account)?.status).toBe('error'));
  return render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
        </MemoryRouter>
        <Notifications />
      </QueryClientProvider>
    </StrictMode>,
  );
}

/** Lets five seconds pass on the fake clock (and every request and render they start settle). */
async function fiveSecondsLater() {
  await act(() => vi.advanceTimersByTimeAsync(5000));
}

beforeEach(() => {
  // jsdom has no matchMedia; the toast area asks it about reduced motion.
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
  vi.useFakeTimers({ shouldAdvanceTime: true });
  userRequests.length = 0;
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the signed-in app when the user load fails', () => {
  it.each<[string, Answer]>([
    ['a 500', 500],
    ['a 502', 502],
    ['a failed network', 'network'],
  ])('after %s: a message and a Try again button, one request, no Unauthorized toast', async (_label, answer) => {
    userAnswer = answer;
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await renderApp('/dashboard');

    const tryAgain = await screen.findByRole('button', { name: appTexts.tryAgain });
    expect(screen.getByRole('alert')).toHaveProperty('textContent', expect.stringContaining(appTexts.accountLoadFailedTitle));
    await fiveSecondsLater();
    expect(userRequests).toHaveLength(1);
    expect(screen.queryByText(appTexts.loading)).toBeNull();
    expect(screen.queryByText('Unauthorized')).toBeNull();

    // One press, one more request; still failing, the same message comes back.
    await user.click(tryAgain);
    await screen.findByRole('button', { name: appTexts.tryAgain });
    await fiveSecondsLater();
    expect(userRequests).toHaveLength(2);
    expect(screen.queryByText('Unauthorized')).toBeNull();
  });

  it('still shows a screen every visitor sees (the admin console checks on the server), with that one request', async () => {
    userAnswer = 502;
    await renderApp('/admin/episodes/resubmit');
    await screen.findByRole('heading', { name: 'Episode Resubmission Admin' });
    await fiveSecondsLater();
    expect(screen.queryByRole('button', { name: appTexts.tryAgain })).toBeNull();
    expect(userRequests).toHaveLength(1);
  });

  it("says 'Unauthorized' only when the server answers 401 (signed out)", async () => {
    userAnswer = 502;
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await renderApp('/dashboard');
    const tryAgain = await screen.findByRole('button', { name: appTexts.tryAgain });
    // The dashboard's code (which shows the toast) is fetched by now, as in a browser: importing it
    // here can take longer than findByText's one second on a loaded machine (CI failed so once).
    await dashboardPage.load();

    userAnswer = 401;
    await user.click(tryAgain);
    await screen.findByText('Unauthorized');
    expect(screen.queryByRole('button', { name: appTexts.tryAgain })).toBeNull();
    expect(userRequests).toHaveLength(2);
  });
});
