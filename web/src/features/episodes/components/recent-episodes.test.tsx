// @vitest-environment jsdom
// Recent Episodes' Retry with a fake network: the toast says the episode is queued again even
// when the list reloads (another read, the retry already committed) before the retry's answer
// arrives, so the episode's button is gone by then.
import type { Episode } from '@domain/episodes';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { RecentEpisodes } from './recent-episodes';

const network = vi.hoisted(() => ({ request: vi.fn() }));
vi.mock('@/lib/api-client', async () => {
  const actual = await vi.importActual<typeof import('@/lib/api-client')>('@/lib/api-client');
  return { ...actual, apiRequest: network.request, apiLoad: (path: string) => network.request('GET', path) };
});
vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), database: vi.fn() }));

const now = new Date().toISOString();
const episode = (status: 'failed' | 'queued'): Episode => ({
  id: 'e1',
  title: 'Show One',
  submittedAt: now,
  processing: { status, stage: null, progress: 0, failureReason: status === 'failed' ? 'The video could not be read.' : null, updatedAt: now },
});

function renderList(queryClient = createQueryClient()) {
  // jsdom has no matchMedia; the toast area asks it about reduced motion.
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <RecentEpisodes />
        <Toaster />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  network.request.mockReset();
});

describe('Recent Episodes: Retry', () => {
  it('confirms the retry although a reload has already taken the button away', async () => {
    let committed = false;
    let answer: (value: unknown) => void = () => {};
    network.request.mockImplementation((method: string, path: string) => {
      if (method === 'POST' && path === '/api/episodes/e1/retry') {
        committed = true;
        return new Promise((resolve) => (answer = resolve));
      }
      return Promise.resolve([episode(committed ? 'queued' : 'failed')]);
    });
    const queryClient = createQueryClient();
    renderList(queryClient);
    await userEvent.click(await screen.findByRole('button', { name: /Retry.*Show One/ }));
    await queryClient.invalidateQueries({ queryKey: queryKeys.episodes.all });
    await waitFor(() => expect(screen.queryByRole('button', { name: /Retry.*Show One/ })).toBeNull());
    answer({ success: true, episode: { id: 'e1', title: 'Show One', submittedAt: now, retriedAt: now, submissionLogId: 'l2' } });
    expect(await screen.findByText('Episode Queued Again')).toBeTruthy();
    expect(screen.getByText("Show One is back in the processing queue. It counts toward this month's episodes.")).toBeTruthy();
    expect(screen.getByText('Queued')).toBeTruthy();
  });

  it('says why a refused retry failed and keeps the button', async () => {
    network.request.mockImplementation(async (method: string) => {
      if (method === 'POST') throw new ApiError(409, 'No episodes left this month');
      return [episode('failed')];
    });
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: /Retry.*Show One/ }));
    expect(await screen.findByText('Retry Failed')).toBeTruthy();
    expect(screen.getByText('No episodes left this month')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Retry.*Show One/ })).toBeTruthy();
  });
});
