// @vitest-environment jsdom
// The episode page with a fake network: live progress that stops asking once the episode is
// done, the failure reason with Retry, Drive previews on demand, and the calendar's Postpone
// (refusing a past date before asking the server), Cancel (only after confirming) and Post now.
import type { EpisodeContentAnswer } from '@domain/episode-content';
import type { EpisodeDetail, ScheduledPost } from '@domain/episode-page';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { EPISODE_POLL_MS } from '@/features/episodes/api/get-episode';
import EpisodePage from './episode-page';

const network = vi.hoisted(() => ({ request: vi.fn() }));
vi.mock('@/lib/api-client', async () => {
  const actual = await vi.importActual<typeof import('@/lib/api-client')>('@/lib/api-client');
  return { ...actual, apiRequest: network.request };
});
vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), database: vi.fn() }));

const ID = '0b7c6a5e-2f1d-4c8e-9a3b-1d2e3f4a5b6c';
const post = (overrides: Partial<ScheduledPost> = {}): ScheduledPost => ({
  id: 'p1',
  provider: 'youtube',
  clipId: 'c1',
  clipTitle: 'Show - clip 01',
  clipName: 'Show - clip 01.mp4',
  scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
  status: 'scheduled',
  postedAt: null,
  lastError: null,
  attempts: 0,
  changeable: true,
  ...overrides,
});
function episode(processing: Partial<NonNullable<EpisodeDetail['processing']>>): EpisodeDetail {
  return {
    id: ID,
    title: 'Show',
    submittedAt: new Date().toISOString(),
    processing: {
      status: 'delivered', stage: null, progress: 100, failureReason: null, updatedAt: new Date().toISOString(),
      startedAt: null, finishedAt: null, driveFolderUrl: null, outputs: [], clips: [], posts: [], ...processing,
    },
  };
}

function renderPage() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[`/episodes/${ID}`]}>
        <Routes>
          <Route path="/episodes/:id" element={<EpisodePage />} />
        </Routes>
        <Toaster />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The GETs of the episode the page made so far. */
const episodeReads = () => network.request.mock.calls.filter(([method, path]) => method === 'GET' && path === `/api/episodes/${ID}`).length;

beforeEach(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('the episode page', () => {
  it("shows what was made from the episode's words once it is delivered, and why anything was not", async () => {
    const content: EpisodeContentAnswer = {
      episodeId: ID,
      status: 'delivered',
      driveFolderUrl: null,
      content: {
        transcript: { engine: 'pocketsphinx', language: 'en-US', durationSeconds: 60, wordCount: 120, text: '00:00:01 the garden needs water' },
        showNotes: {
          summary: 'A talk about gardens and bicycles.',
          chapters: [{ start: 1, time: '00:00:01', title: 'Garden water', firstSentence: 0, endSentence: 2 }],
          quotes: [{ start: 31, time: '00:00:31', text: 'a bicycle chain needs oil' }],
          keywords: ['garden', 'bicycle'],
        },
        blogPost: { title: 'Gardens and bicycles', markdown: '# Gardens and bicycles', wordpress: { postId: 7, link: 'https://blog.example.com/?p=7', status: 'draft' } },
        problems: [{ stage: 'captions', reason: 'The captions could not be burned in.' }],
      },
    };
    network.request.mockImplementation(async (_method: string, path: string) => (path.endsWith('/content') ? content : episode({ status: 'delivered' })));
    renderPage();
    const panel = await screen.findByRole('region', { name: 'Transcript, show notes and blog post' });
    await within(panel).findByText('A talk about gardens and bicycles.');
    expect(within(panel).getByRole('region', { name: 'Chapters' }).textContent).toContain('00:00:01 Garden water');
    expect(within(panel).getByRole('region', { name: 'Key quotes' }).textContent).toContain('a bicycle chain needs oil');
    expect(within(panel).getByRole('region', { name: 'Keywords' }).textContent).toBe('Keywordsgardenbicycle');
    expect(within(panel).getByText('Saved as a draft on your WordPress site', { exact: false })).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'Open the post on WordPress' }).getAttribute('href')).toBe('https://blog.example.com/?p=7');
    expect(within(panel).getByText('Transcript (120 words, pocketsphinx, en-US)')).toBeTruthy();
    expect(within(panel).getByText('The captions could not be burned in.')).toBeTruthy();
    expect(network.request).toHaveBeenCalledWith('GET', `/api/episodes/${ID}/content`, expect.anything());
  });

  it('does not ask for the content while the episode is still processing', async () => {
    network.request.mockResolvedValue(episode({ status: 'processing', stage: 'transcribing', progress: 10 }));
    renderPage();
    await screen.findByText('The transcript, show notes and blog post appear here once the episode is processed.');
    expect(network.request).not.toHaveBeenCalledWith('GET', `/api/episodes/${ID}/content`, expect.anything());
  });

  it('shows the stage and progress while processing, asks again, and stops once delivered', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    network.request
      .mockResolvedValueOnce(episode({ status: 'processing', stage: 'rendering clip 2 of 3', progress: 55 }))
      .mockResolvedValue(episode({ status: 'delivered', driveFolderUrl: 'https://drive.google.com/drive/folders/f1' }));
    renderPage();
    await screen.findByText('Processing: rendering clip 2 of 3 (55%)');
    expect(screen.getByRole('progressbar', { name: 'Processing progress of Show' })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(EPISODE_POLL_MS));
    await screen.findByText('Delivered');
    expect(screen.getByRole('link', { name: 'Open the Google Drive folder' }).getAttribute('href')).toBe('https://drive.google.com/drive/folders/f1');
    const reads = episodeReads();
    await act(() => vi.advanceTimersByTimeAsync(EPISODE_POLL_MS * 3));
    expect(episodeReads()).toBe(reads);
  });

  it('shows the failure reason and retries through POST /api/episodes/:id/retry', async () => {
    network.request.mockImplementation(async (method: string) =>
      method === 'POST' ? { ok: true } : episode({ status: 'failed', failureReason: 'episode.mp4 is not a readable video' }),
    );
    renderPage();
    await screen.findByText('episode.mp4 is not a readable video');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(network.request).toHaveBeenCalledWith('POST', `/api/episodes/${ID}/retry`, expect.anything());
    await screen.findByText('Episode queued again');
  });

  it('says so for an episode that is not there', async () => {
    const { ApiError } = await import('@/lib/api-client');
    network.request.mockRejectedValue(new ApiError(404, '404: Episode not found'));
    renderPage();
    await screen.findByRole('heading', { name: 'Episode not found' });
  });

  it('loads a Drive preview only when asked', async () => {
    network.request.mockResolvedValue(
      episode({
        outputs: [
          { name: 'Show.mp4', kind: 'episode', durationSeconds: 600, width: 1280, height: 720, driveFileId: 'e1', driveUrl: 'https://drive.google.com/file/d/e1/view', previewUrl: 'https://drive.google.com/file/d/e1/preview' },
        ],
      }),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Preview Show.mp4' }));
    expect(screen.getByTitle('Preview of Show.mp4').getAttribute('src')).toBe('https://drive.google.com/file/d/e1/preview');
    expect(screen.getByRole('link', { name: 'Open Show.mp4 in Google Drive' }).getAttribute('href')).toBe('https://drive.google.com/file/d/e1/view');
  });

  it('postpones to a future date only, cancels after confirming, and posts now', async () => {
    network.request.mockImplementation(async (method: string) => (method === 'GET' ? episode({ posts: [post()] }) : { post: post() }));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Postpone Show - clip 01 on YouTube' }));
    const dialog = await screen.findByRole('dialog', { name: 'Postpone post' });
    const input = within(dialog).getByLabelText('New date and time');
    await userEvent.clear(input);
    await userEvent.type(input, '2020-01-01T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Postpone' }));
    await within(dialog).findByText('Choose a date and time in the future.');
    expect(network.request).not.toHaveBeenCalledWith('PATCH', expect.anything(), expect.anything(), expect.anything());
    await userEvent.clear(input);
    await userEvent.type(input, `${new Date().getFullYear() + 1}-01-02T10:00`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Postpone' }));
    await screen.findByText('Post postponed');
    expect(network.request).toHaveBeenCalledWith('PATCH', '/api/scheduled-posts/p1', expect.anything(), { body: { scheduledFor: new Date(`${new Date().getFullYear() + 1}-01-02T10:00`).toISOString() } });

    await userEvent.click(screen.getByRole('button', { name: 'Cancel Show - clip 01 on YouTube' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Keep post' }));
    expect(network.request).not.toHaveBeenCalledWith('POST', '/api/scheduled-posts/p1/cancel', expect.anything());
    await userEvent.click(screen.getByRole('button', { name: 'Cancel Show - clip 01 on YouTube' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel post' }));
    expect(network.request).toHaveBeenCalledWith('POST', '/api/scheduled-posts/p1/cancel', expect.anything());
    await screen.findByText('Post canceled');

    await userEvent.click(screen.getByRole('button', { name: 'Post Show - clip 01 on YouTube now' }));
    expect(network.request).toHaveBeenCalledWith('POST', '/api/scheduled-posts/p1/post-now', expect.anything());
    await screen.findByText('Posting now');
  });

  it('offers no change for a post a worker holds or one already posted', async () => {
    network.request.mockResolvedValue(
      episode({ posts: [post({ id: 'a', changeable: false }), post({ id: 'b', provider: 'x', status: 'posted', changeable: false, postedAt: new Date().toISOString() })] }),
    );
    renderPage();
    await screen.findByText('Posting now or waiting to retry');
    await screen.findByText('Posted');
    expect(screen.queryByRole('button', { name: /Postpone|Cancel|Post .* now/ })).toBeNull();
  });

  it("groups the calendar by clip: each clip's platforms and dates under its name", async () => {
    network.request.mockResolvedValue(
      episode({ posts: [post({ id: 'a' }), post({ id: 'b', provider: 'linkedin' }), post({ id: 'c', clipName: 'Show - clip 02.mp4', provider: 'x' })] }),
    );
    renderPage();
    const first = (await screen.findByRole('heading', { name: 'Show - clip 01' })).closest('li')!;
    expect(within(first).getByText('YouTube')).toBeTruthy();
    expect(within(first).getByText('LinkedIn')).toBeTruthy();
    expect(within(first).queryByText('X (Twitter)')).toBeNull();
    const second = screen.getByRole('heading', { name: 'Show - clip 02' }).closest('li')!;
    expect(within(second).getByText('X (Twitter)')).toBeTruthy();
  });
});
