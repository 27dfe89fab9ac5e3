// @vitest-environment jsdom
// The screens' error boundary (issue 40, item 7): a screen whose chunk fails to load, or that
// throws while rendering, shows what happened and a Reload button below the header, which stays
// with its navigation; going to another address renders the screens again. Two routes of the
// real table are swapped for a screen whose chunk fails and one that throws.
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadPage } from '@/lib/chunk-load-error';
import { createQueryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { testAccount } from '@/testing/account';
import { AppRoutes } from './router';
import { appTexts } from './texts';

vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), database: vi.fn(), currentAccessToken: async () => 'token' }));
vi.mock('@/lib/chunk-load-error', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/chunk-load-error')>()),
  reloadPage: vi.fn(),
}));
vi.mock('./route-table', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./route-table')>();
  const { lazyPage } = await import('./lazy-page');
  // What Chromium says when a dynamic import's file is gone (a deploy replaced it) or unreachable.
  const chunkGone = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/episode-list-page-Bx7f2.js'));
  const broken = () => {
    throw new TypeError("Cannot read properties of undefined (reading 'title')");
  };
  const swapped: Record<string, () => Promise<{ default: () => never }>> = {
    '/episodes': chunkGone,
    '/done': () => Promise.resolve({ default: broken }),
  };
  return { ...actual, routeTable: actual.routeTable.map((route) => (swapped[route.path] ? { ...route, page: lazyPage(swapped[route.path]) } : route)) };
});

/** Somewhere else to go, as a link of the header would take the person. */
function GoElsewhere() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate('/no-such-page')}>
      Go elsewhere
    </button>
  );
}

function renderAt(path: string) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.account, testAccount());
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <GoElsewhere />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const header = () => screen.getByRole('banner');

beforeEach(() => {
  // React reports each error a boundary catches on the console; the tests read the screen.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.clearAllMocks();
});

describe("a screen's failure", () => {
  it('a chunk that failed to load: the message and a Reload button that reloads the page, under the header', async () => {
    renderAt('/episodes');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(appTexts.screenLoadFailedTitle);
    expect(alert.textContent).toContain(appTexts.screenLoadFailedBody);
    expect(header().textContent).toContain(appTexts.productName);
    expect(screen.getByRole('button', { name: 'Account menu: Ada Lovelace' })).toBeTruthy();

    const reload = screen.getByRole('button', { name: appTexts.reload });
    await userEvent.tab();
    while (document.activeElement !== reload && header().contains(document.activeElement)) await userEvent.tab();
    expect(document.activeElement).toBe(reload);
    await userEvent.keyboard('{Enter}');
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('a screen that throws: that something went wrong, and a Reload button', async () => {
    renderAt('/done');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(appTexts.screenFailedTitle);
    expect(alert.textContent).not.toContain(appTexts.screenLoadFailedTitle);
    await userEvent.click(screen.getByRole('button', { name: appTexts.reload }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(header().textContent).toContain(appTexts.productName);
  });

  it('stays with its address: another address renders its screen', async () => {
    renderAt('/done');
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Go elsewhere' }));
    await screen.findByRole('heading', { name: appTexts.notFoundTitle });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: appTexts.reload })).toBeNull();
  });
});
