// @vitest-environment jsdom
// The app-wide error boundary (issue 40, item 7): a failure outside any screen (here the header)
// shows the message and a Reload button in place of the app, never a blank page.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadPage } from '@/lib/chunk-load-error';
import { createQueryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { testAccount } from '@/testing/account';
import { App } from './app';
import { appTexts } from './texts';

vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), database: vi.fn(), currentAccessToken: async () => 'token' }));
vi.mock('@/lib/chunk-load-error', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/chunk-load-error')>()),
  reloadPage: vi.fn(),
}));
vi.mock('./layout/header', () => ({
  Header: () => {
    throw new RangeError('Invalid time value');
  },
}));

beforeEach(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
  // React reports each error a boundary catches on the console; the test reads the screen.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.clearAllMocks();
});

describe('the app', () => {
  it('shows what went wrong and a Reload button when its frame fails', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(queryKeys.account, testAccount());
    render(<App queryClient={queryClient} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(appTexts.screenFailedTitle);
    await userEvent.click(screen.getByRole('button', { name: appTexts.reload }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });
});
