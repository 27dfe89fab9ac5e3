// @vitest-environment jsdom
// The panel with a fake network: states, summary line, and the token-check and disconnect toasts
// (including the 'Reconnection Needed' toast 2 s after the check).
import type { ConnectionEntry, ProviderId, TokenCheckResult } from '@domain/connection-status';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { ConnectionsPanel } from './connections-panel';

const network = vi.hoisted(() => ({ request: vi.fn(), load: vi.fn() }));
vi.mock('@/lib/api-client', async () => {
  const actual = await vi.importActual<typeof import('@/lib/api-client')>('@/lib/api-client');
  return { ...actual, apiRequest: network.request, apiLoad: network.load };
});
vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), database: vi.fn() }));

const hour = 3600_000;
function entry(provider: ProviderId, overrides: Partial<ConnectionEntry> = {}): ConnectionEntry {
  return {
    provider,
    available: ['google', 'youtube', 'x', 'linkedin', 'wordpress'].includes(provider),
    accountLabel: null,
    connected: false,
    status: null,
    hasAccessToken: false,
    hasRefreshToken: false,
    expiresAt: null,
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
    ...overrides,
  };
}
const live = { connected: true, hasAccessToken: true, hasRefreshToken: true, createdAt: new Date(Date.now() - hour).toISOString(), updatedAt: new Date(Date.now() - hour).toISOString() };

/** Moves the fake clock on by `ms`, letting React render what the timers and promises did. */
async function advanceClock(ms: number): Promise<void> {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

function renderPanel(episodesInProgress: string[] = []) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/dashboard']}>
        <ConnectionsPanel episodesInProgress={episodesInProgress} />
        <Toaster />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  // jsdom has no matchMedia; the toast area asks it about reduced motion.
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
  // Nor <dialog>'s modal methods.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  network.load.mockResolvedValue([
    entry('google', { ...live, expiresAt: new Date(Date.now() + hour).toISOString() }),
    entry('youtube', { ...live, hasRefreshToken: false, expiresAt: new Date(Date.now() + hour).toISOString() }),
    entry('facebook'),
    entry('instagram'),
    entry('tiktok'),
    entry('x', { ...live, expiresAt: new Date(Date.now() - 1000).toISOString() }),
    entry('linkedin'),
    entry('wordpress'),
  ]);
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('ConnectionsPanel', () => {
  it('shows each state with its badge and button, and the summary line', async () => {
    renderPanel();
    await screen.findByText('1/3 working, 2 need attention');
    expect(screen.getByRole('button', { name: 'Disconnect Google Drive' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fix YouTube' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh X (Twitter)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect LinkedIn' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Coming Soon! TikTok' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getAllByText('Connected')).toHaveLength(1);
    expect(screen.getAllByText('Failed')).toHaveLength(1);
    expect(screen.getAllByText('Expired')).toHaveLength(1);
  });

  it("the token check toasts its result, then 'Reconnection Needed' 2 s later, and refetches", async () => {
    let answer: (result: TokenCheckResult) => void = () => {};
    network.request.mockReturnValue(new Promise<TokenCheckResult>((resolve) => (answer = resolve)));
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh X (Twitter)' }));
    expect(network.request).toHaveBeenCalledWith('POST', '/api/oauth/refresh-all', expect.anything());
    // From the answer on, the clock moves only when the test moves it.
    vi.useFakeTimers();
    try {
      answer({ validated: [{ provider: 'google' }], refreshed: [], failed: [], needsReauth: [{ provider: 'x' }, { provider: 'youtube' }] });
      await advanceClock(0);
      expect(screen.getByText('Token Check Complete')).toBeTruthy();
      expect(screen.getByText('1 tokens working, 2 need attention - reconnect required')).toBeTruthy();
      await advanceClock(1999);
      expect(screen.queryByText('Reconnection Needed')).toBeNull();
      await advanceClock(1);
      expect(screen.getByText('Reconnection Needed')).toBeTruthy();
      expect(screen.getByText('Please reconnect: X (Twitter), YouTube')).toBeTruthy();
      expect(network.load).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failed token check toasts 'Token Refresh Failed' with the message", async () => {
    const { ApiError } = await import('@/lib/api-client');
    network.request.mockRejectedValue(new ApiError(500, '500: boom'));
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh X (Twitter)' }));
    await screen.findByText('Token Refresh Failed');
    await screen.findByText('500: boom');
  });

  it("disconnecting toasts 'Disconnected', or 'Disconnect Failed' with the provider and message", async () => {
    network.request.mockResolvedValueOnce({ success: true });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect Google Drive' }));
    // It asks first: keeping the connection sends nothing.
    await userEvent.click(await screen.findByRole('button', { name: 'Keep connected' }));
    expect(network.request).not.toHaveBeenCalledWith('PATCH', '/api/oauth-connections/google/disconnect', expect.anything());
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect Google Drive' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Disconnect Google Drive?' })).getByRole('button', { name: 'Disconnect' }));
    expect(network.request).toHaveBeenCalledWith('PATCH', '/api/oauth-connections/google/disconnect', expect.anything());
    await screen.findByText('Disconnected');
    await screen.findByText('Google Drive connection removed successfully');

    const { ApiError } = await import('@/lib/api-client');
    network.request.mockRejectedValueOnce(new ApiError(404, '404: No Google Drive connection to remove'));
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect Google Drive' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Disconnect Google Drive?' })).getByRole('button', { name: 'Disconnect' }));
    await screen.findByText('Disconnect Failed');
    await screen.findByText('Failed to disconnect Google Drive: 404: No Google Drive connection to remove');
  });

  it('names the episodes being processed when Google Drive is to be disconnected, and that their work is kept', async () => {
    renderPanel(['Why Budgets Fail']);
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect Google Drive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect Google Drive?' });
    expect(dialog.textContent).toContain(
      'This episode is being processed and will stop before delivery: "Why Budgets Fail". Retry it after connecting again: the work done is kept.',
    );
  });

  it("WordPress without both fields toasts 'Missing Information' and sends nothing", async () => {
    network.request.mockResolvedValue(null);
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Connect WordPress' }));
    await userEvent.type(await screen.findByLabelText('Username'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText('Missing Information');
    await screen.findByText('Please enter both username and application password');
    expect(network.request).not.toHaveBeenCalled();
  });
});
