// @vitest-environment jsdom
// Recent Episodes with a fake network: each episode's processing state as the list answers it,
// and Retry, whose toast says the episode is queued again even when the list reloads (another
// read, the retry already committed) before the retry's answer arrives, so the button is gone.
import type { Episode } from '@domain/episodes';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
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

describe('Recent Episodes: processing', () => {
  it("shows each episode's state: Delivered, Failed with the reason, Processing with stage and a labelled progress bar", async () => {
    const processing = (status: 'delivered' | 'failed' | 'processing', stage: string | null, progress: number, failureReason: string | null) => ({ status, stage, progress, failureReason, updatedAt: now });
    network.request.mockResolvedValue([
      { id: 'e1', title: 'Pilot', submittedAt: now, processing: processing('delivered', null, 100, null) },
      { id: 'e2', title: 'Second-Take', submittedAt: now, processing: processing('failed', null, 35, 'The video has no audio stream.') },
      { id: 'e3', title: 'Live-Show', submittedAt: now, processing: processing('processing', 'rendering', 40, null) },
    ] satisfies Episode[]);
    renderList();
    const row = async (title: string) => (await screen.findByRole('link', { name: title })).closest('li')!;
    expect(within(await row('Pilot')).getByText('Delivered', { exact: true })).toBeTruthy();
    expect(within(await row('Second-Take')).getByText('Failed: The video has no audio stream.')).toBeTruthy();
    const live = await row('Live-Show');
    expect(within(live).getByText('Processing: rendering (40%)')).toBeTruthy();
    expect(within(live).getByRole('progressbar', { name: 'Processing progress of Live-Show' }).getAttribute('value')).toBe('40');
    expect(network.request).toHaveBeenCalledWith('GET', '/api/episodes');
  });
});

describe('Recent Episodes: Retry', () => {
  it('offers no Retry for a failure that trying again cannot mend, and says what to do instead', async () => {
    network.request.mockResolvedValue([
      { ...episode('failed'), processing: { ...episode('failed').processing!, failureReason: 'The video has no video stream.', failurePermanent: true } },
      { ...episode('failed'), id: 'e2', title: 'Show Two', processing: { ...episode('failed').processing!, failurePermanent: false } },
    ] satisfies Episode[]);
    renderList();
    const row = (await screen.findByRole('link', { name: 'Show One' })).closest('li')!;
    expect(within(row).getByText('Failed: The video has no video stream.')).toBeTruthy();
    expect(within(row).getByText('Submit it again with a corrected file or start and end times.')).toBeTruthy();
    expect(within(row).queryByRole('button')).toBeNull();
    const retryable = (await screen.findByRole('link', { name: 'Show Two' })).closest('li')!;
    expect(within(retryable).getByRole('button', { name: /Retry.*Show Two/ })).toBeTruthy();
    expect(within(retryable).queryByText('Submit it again with a corrected file or start and end times.')).toBeNull();
  });

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
