// @vitest-environment jsdom
// The episode page with a fake network: live progress that stops asking once the episode is
// done, the failure reason with Retry, Drive previews on demand, the calendar's Postpone (refusing
// a past date before asking the server), Cancel (only after confirming) and Post now, and the
// review before posting: why it waits, approval, the suggested title, a clip's texts within their
// limits, the rendered blog post and the transcript's corrections.
import type { EpisodeContentAnswer } from '@domain/episode-content';
import type { EpisodeClip } from '@domain/episode-clips';
import type { EpisodeDetail, ScheduledPost } from '@domain/episode-page';
import type { EpisodeReview } from '@domain/review';
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
  kind: 'clip',
  clipId: 'c1',
  clipTitle: 'Show - clip 01',
  clipName: 'Show - clip 01.mp4',
  scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
  status: 'scheduled',
  postedAt: null,
  lastError: null,
  attempts: 0,
  externalId: null,
  changeable: true,
  ...overrides,
});
const clip = (position: number, overrides: Partial<EpisodeClip> = {}): EpisodeClip => {
  const title = `Show - clip 0${position}`;
  return {
    id: `c${position}`, position, startSeconds: 10 * position, endSeconds: 10 * position + 8, firstSentence: position, endSentence: position + 1,
    title, posts: { youtube: { title, description: '' }, x: { text: title }, linkedin: { text: title }, wordpress: { title, content: '' } },
    fileName: `${title}.mp4`, durationSeconds: 8, width: 1080, height: 1920, driveFileId: null, driveUrl: null, renderVersion: 1, reviewState: 'pending',
    score: 0.82, reason: 'A question and its answer, complete in itself.',
    ...overrides,
  };
};
const review = (overrides: Partial<EpisodeReview> = {}): EpisodeReview => ({
  hold: null, dueAt: null, releasedAt: null, transcriptVersion: null, transcriptConfidence: null, timeZone: 'UTC+01:00', postingHour: 10,
  postAutomatically: true, edits: { renderingClipIds: [], writingTexts: false, failure: null }, ...overrides,
});
function episode(processing: Partial<NonNullable<EpisodeDetail['processing']>>, overrides: Partial<EpisodeDetail> = {}): EpisodeDetail {
  return {
    id: ID,
    title: 'Show',
    titleConfirmed: true,
    guests: [],
    submittedAt: new Date().toISOString(),
    processing: {
      status: 'delivered', stage: null, progress: 100, failureReason: null, updatedAt: new Date().toISOString(),
      startedAt: null, finishedAt: null, driveFolderUrl: null, outputs: [], clips: [], posts: [], review: review(), ...processing,
    },
    ...overrides,
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

  it('shows each clip as soon as it is made, to watch and read while the episode is still processing', async () => {
    const made = clip(1, { driveFileId: 'd1', driveUrl: 'https://drive.google.com/file/d/d1/view', posts: { ...clip(1).posts, x: { text: 'Why gardens need water #garden' } } });
    network.request.mockResolvedValue(episode({ status: 'processing', stage: 'rendering the episode', progress: 40, clips: [made] }));
    renderPage();
    const panel = await screen.findByRole('region', { name: 'Clips' });
    expect(within(panel).getByText(/Each clip appears here as soon as it is made/)).toBeTruthy();
    const card = within(panel).getByRole('listitem', { name: 'Clip 1: Show - clip 01' });
    expect(within(card).getByText('Why gardens need water #garden')).toBeTruthy();
    expect(within(card).getByText('X post')).toBeTruthy();
    // Approving and editing open with the whole episode: the SQL rules refuse them before.
    expect(within(card).queryByRole('button', { name: 'Approve Show - clip 01' })).toBeNull();
    expect(within(card).queryByRole('button', { name: /Edit texts/ })).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: 'Watch Show - clip 01' }));
    expect(within(card).getByTitle('Video of Show - clip 01').getAttribute('src')).toBe('https://drive.google.com/file/d/d1/preview');
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

  it('offers no Retry for a failure that trying again cannot mend, and says what to do instead', async () => {
    network.request.mockResolvedValue(episode({ status: 'failed', failurePermanent: true, failureReason: 'episode.mp4 has no video stream' }));
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('episode.mp4 has no video stream')).toBeTruthy();
    expect(within(alert).getByText('Submit it again with a corrected file or start and end times.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
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
    expect(screen.getByRole('link', { name: 'Open in Google Drive: Show.mp4' }).getAttribute('href')).toBe('https://drive.google.com/file/d/e1/view');
  });

  it('postpones to a future date only, cancels after confirming, and posts now', async () => {
    network.request.mockImplementation(async (method: string) => (method === 'GET' ? episode({ clips: [clip(1)], posts: [post()] }) : { post: post() }));
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
      episode({
        clips: [clip(1)],
        posts: [
          post({ id: 'a', changeable: false }),
          post({ id: 'b', provider: 'x', status: 'posted', changeable: false, postedAt: new Date().toISOString(), externalId: '1234' }),
        ],
      }),
    );
    renderPage();
    await screen.findByText('Posting now or waiting to retry');
    expect(screen.getByRole('link', { name: 'Open the post on X (Twitter)' }).getAttribute('href')).toBe('https://x.com/i/status/1234');
    expect(screen.queryByRole('button', { name: /^(Postpone|Cancel|Post) .* on / })).toBeNull();
  });

  it("groups the calendar by clip, in the podcast's time zone: each clip's platforms and dates under its name", async () => {
    network.request.mockResolvedValue(
      episode({
        clips: [clip(1), clip(2)],
        posts: [
          post({ id: 'a', scheduledFor: '2026-12-01T09:00:00Z' }),
          post({ id: 'b', provider: 'linkedin' }),
          post({ id: 'c', clipId: 'c2', clipName: 'Show - clip 02.mp4', provider: 'x' }),
        ],
      }),
    );
    renderPage();
    const first = (await screen.findByRole('heading', { name: 'Clip 1: Show - clip 01' })).closest('li')!;
    // Why Castloop chose it, with its score.
    expect(within(first).getByText('Why this moment: A question and its answer, complete in itself. (score 82 of 100)')).toBeTruthy();
    expect(within(first).getByText('YouTube')).toBeTruthy();
    expect(within(first).getByText('LinkedIn')).toBeTruthy();
    expect(within(first).getByText('Dec 1, 2026, 10:00 AM (UTC+01:00)')).toBeTruthy();
    expect(within(first).queryByText('X (Twitter)')).toBeNull();
    const second = screen.getByRole('heading', { name: 'Clip 2: Show - clip 02' }).closest('li')!;
    expect(within(second).getByText('X (Twitter)')).toBeTruthy();
  });
});

describe('review before posting', () => {
  it('says in plain words why nothing posts yet, and approving starts posting', async () => {
    network.request.mockImplementation(async (method: string) =>
      method === 'POST' ? { success: true } : episode({ clips: [clip(1)], posts: [post({ status: 'held', changeable: false })], review: review({ hold: 'low_confidence' }) }),
    );
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Waiting for your approval');
    expect(alert.textContent).toContain('The speech recognition was unsure of many words');
    expect(screen.getByText('Waiting for review')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Approve and start posting' }));
    expect(network.request).toHaveBeenCalledWith('POST', `/api/episodes/${ID}/approve`, expect.anything());
    await screen.findByText('Posting starts at your next posting hour.');
  });

  it('shows when posting starts by itself, in the podcast time zone', async () => {
    network.request.mockResolvedValue(episode({ review: review({ dueAt: '2026-12-01T09:00:00Z' }) }));
    renderPage();
    await screen.findByText('Posting starts Dec 1, 2026, 10:00 AM (UTC+01:00) unless you approve sooner.');
  });

  it('marks a suggested title, keeps it or takes another', async () => {
    network.request.mockImplementation(async (method: string, path: string, _schema: unknown, options?: { body: { title: string } }) =>
      method === 'PATCH' ? { id: ID, title: options?.body.title ?? path, titleConfirmed: true } : episode({}, { title: 'Country', titleConfirmed: false }),
    );
    renderPage();
    await screen.findByText('Suggested title');
    await userEvent.click(screen.getByRole('button', { name: 'Keep this title' }));
    expect(network.request).toHaveBeenCalledWith('PATCH', `/api/episodes/${ID}/title`, expect.anything(), { body: { title: 'Country' } });
    await userEvent.click(screen.getByRole('button', { name: 'Change title' }));
    const input = screen.getByLabelText('Episode title');
    await userEvent.clear(input);
    await userEvent.click(screen.getByRole('button', { name: 'Save title' }));
    await screen.findByText('Enter a title of 1 to 200 characters.');
    await userEvent.type(input, 'Why Budgets Fail');
    await userEvent.click(screen.getByRole('button', { name: 'Save title' }));
    expect(network.request).toHaveBeenCalledWith('PATCH', `/api/episodes/${ID}/title`, expect.anything(), { body: { title: 'Why Budgets Fail' } });
  });

  it("counts each platform's limit as the subscriber types, X by its weighted length, and saves the texts", async () => {
    network.request.mockImplementation(async (method: string) => (method === 'PATCH' ? { clip: clip(1) } : episode({ clips: [clip(1)] })));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit texts of Show - clip 01' }));
    const dialog = await screen.findByRole('dialog', { name: "Edit the clip's texts" });
    // The worker adds the episode's link when posting (worker/content/platform-text.ts): said up front.
    expect(within(dialog).getByText(/the X and LinkedIn texts end with a link to the full episode/)).toBeTruthy();
    const x = within(dialog).getByLabelText('X post');
    await userEvent.clear(x);
    await userEvent.type(x, '家'.repeat(141));
    expect(within(dialog).getByText('282 / 280')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save texts' }));
    await within(dialog).findByText('At most 280 characters.');
    expect(network.request).not.toHaveBeenCalledWith('PATCH', expect.anything(), expect.anything(), expect.anything());
    await userEvent.clear(x);
    await userEvent.type(x, 'Why budgets fail: a thread');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save texts' }));
    await screen.findByText('Texts saved');
    expect(network.request).toHaveBeenCalledWith('PATCH', '/api/clips/c1', expect.anything(), {
      body: expect.objectContaining({ title: 'Show - clip 01', posts: expect.objectContaining({ x: { text: 'Why budgets fail: a thread' } }) }),
    });
  });

  it('renders the blog post (not its Markdown) and edits it until it is on WordPress', async () => {
    const content: EpisodeContentAnswer = {
      episodeId: ID, status: 'delivered', driveFolderUrl: null,
      content: { transcript: null, showNotes: null, problems: [], blogPost: { title: 'Budgets', markdown: '# Budgets\n\n## Why\n\nThey **fail**.', wordpress: null } },
    };
    network.request.mockImplementation(async (method: string, path: string) =>
      method === 'PATCH' ? { blogPost: content.content!.blogPost } : path.endsWith('/content') ? content : episode({}),
    );
    renderPage();
    const article = (await screen.findByRole('heading', { name: 'Why', level: 2 })).closest('article')!;
    expect(article.innerHTML).toContain('<strong>fail</strong>');
    expect(article.textContent).not.toContain('**');
    await userEvent.click(screen.getByRole('button', { name: 'Edit blog post' }));
    await userEvent.type(await screen.findByLabelText('Blog post text (Markdown)'), ' More.');
    await userEvent.click(screen.getByRole('button', { name: 'Save blog post' }));
    expect(network.request).toHaveBeenCalledWith('PATCH', `/api/episodes/${ID}/blog-post`, expect.anything(), {
      body: { title: 'Budgets', markdown: '# Budgets\n\n## Why\n\nThey **fail**. More.' },
    });
  });

  it('corrects a word of the transcript (its time kept) and says which clips are rendered again', async () => {
    const transcript = {
      engine: 'pocketsphinx', language: 'en-US', durationSeconds: 4, version: 3, confidence: 0.6, editedAt: null,
      words: [{ text: 'ask', start: 0, end: 0.5, confidence: 0.9 }, { text: 'knot', start: 0.5, end: 1, confidence: 0.3 }],
      sentences: [{ text: 'ask knot', start: 0, end: 1, firstWord: 0, endWord: 2 }],
    };
    network.request.mockImplementation(async (method: string, path: string) =>
      method === 'PUT' ? { version: 4, clipIds: ['c1'] } : path.endsWith('/transcript') ? transcript : episode({ review: review({ transcriptVersion: 3 }) }),
    );
    renderPage();
    expect((await screen.findByTitle('unsure')).textContent).toBe('knot');
    await userEvent.click(screen.getByRole('button', { name: 'Edit the sentence at 0:00' }));
    const word = screen.getByLabelText('Word 2 of 2 of the sentence at 0:00');
    await userEvent.clear(word);
    await userEvent.type(word, 'not');
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    await screen.findByText('1 word(s) corrected, not saved yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Save corrections' }));
    expect(network.request).toHaveBeenCalledWith('PUT', `/api/episodes/${ID}/transcript`, expect.anything(), { body: { version: 3, words: [{ index: 1, text: 'not' }] } });
    await screen.findByText('1 clip(s) are being rendered again with the corrected captions.');
  });
});
