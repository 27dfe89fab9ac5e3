// @vitest-environment jsdom
// The dialog's 'Submission Failed' toast for each failed answer of the submit call (spec section
// 8), with a file already uploaded (remembered from before a reload) and a fake network; its file
// area; and its banner and button for each block reason of the stats (the API's own tests show
// which reason each account state gets).
import type { EpisodeStats } from '@domain/episodes';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { readRemembered, writeRemembered } from '../upload/remembered';
import { GatingBox } from './gating-box';
import SubmitEpisodeDialog from './submit-episode-dialog';

vi.mock('@/lib/supabase', () => ({ currentAccessToken: async () => 'token', authClient: vi.fn(), database: vi.fn() }));

const userId = 'user-1';
const openStats: EpisodeStats = {
  thisMonth: 0,
  total: 0,
  currentCount: 0,
  limit: 2,
  subscriptionTier: 'growth',
  canSubmit: true,
  blockReason: null,
  hostingSetup: false,
  onboardingCompleted: true,
  socialConnected: true,
  hostingSetupStartedAt: null,
};

beforeEach(() => {
  // jsdom has no matchMedia (the toast area asks it) and no modal <dialog> methods.
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  writeRemembered(userId, { uploaded: [{ name: 'episode.mp4', size: 1024, path: `${userId}/uploads/episode.mp4` }], interrupted: [] });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** Submits with the server answering `body`, and returns the toast's description. */
async function toastFor(status: number, statusText: string, body: string, contentType = 'application/json') {
  vi.stubGlobal('fetch', async () => new Response(body || null, { status, statusText, headers: { 'Content-Type': contentType } }));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SubmitEpisodeDialog userId={userId} stats={openStats} open onClose={() => {}} />
      <Toaster />
    </QueryClientProvider>,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Submit Episode' }));
  const title = await screen.findByText('Submission Failed');
  return title.nextElementSibling?.textContent;
}

describe("the dialog's 'Submission Failed' toast", () => {
  it("shows the server's message", async () => {
    expect(await toastFor(409, 'Conflict', '{"message":"Monthly episode submission limit reached."}')).toBe('Monthly episode submission limit reached.');
  });
  it("shows 'Failed to submit episode' for a JSON body without a message", async () => {
    expect(await toastFor(500, 'Internal Server Error', '{}')).toBe('Failed to submit episode');
  });
  it("shows 'Server error (502): Bad Gateway' for a proxy's HTML page", async () => {
    expect(await toastFor(502, 'Bad Gateway', '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html')).toBe('Server error (502): Bad Gateway');
  });
  it("shows 'Server error (503): Service Unavailable' for an empty body", async () => {
    expect(await toastFor(503, 'Service Unavailable', '')).toBe('Server error (503): Service Unavailable');
  });
});

describe('the file area', () => {
  function renderDialog() {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SubmitEpisodeDialog userId={userId} stats={openStats} open onClose={() => {}} />
        <Toaster />
      </QueryClientProvider>,
    );
  }

  it('takes dropped files as if chosen (checked the same way)', async () => {
    renderDialog();
    const zone = screen.getByTestId('episode-drop-zone');
    const notes = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    fireEvent.dragOver(zone, { dataTransfer: { types: ['Files'], files: [notes] } });
    screen.getByText('Drop the files to upload them.');
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files: [notes] } });
    await screen.findByText('notes.txt is not an MP4 video. Only MP4 files can be uploaded.');
    screen.getByText('Drag and drop MP4 files here, or choose them below.');
    // The keyboard's way stays.
    expect(screen.getByLabelText('Choose MP4 files').getAttribute('type')).toBe('file');
  });

  it('lets the interrupted-uploads notice be dismissed, for good', async () => {
    writeRemembered(userId, { uploaded: [], interrupted: [{ name: 'long.mp4', size: 5 * 1024 * 1024 }] });
    renderDialog();
    await screen.findByText('Interrupted uploads');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss interrupted uploads' }));
    expect(screen.queryByText('Interrupted uploads')).toBeNull();
    expect(readRemembered(userId).interrupted).toEqual([]);
  });
});

describe('gating by block reason', () => {
  it.each([
    ['google_drive_required', 'Connect Google Drive First', 'Google Drive connection required. Close this dialog and connect your Google Drive account from the dashboard.'],
    ['google_drive_invalid', 'Reconnect Google Drive', 'Your Google Drive token has expired. Close this dialog and reconnect Google Drive from the dashboard.'],
    [
      'hosting_setup',
      'Hosting Setup Required',
      'Your podcast hosting is being configured and will be ready within one business day. Episode submissions will be enabled once setup is complete.',
    ],
    ['monthly_limit', 'Monthly Limit Reached', 'Monthly episode submission limit reached. Please upgrade your plan to submit more episodes.'],
  ] as const)('%s: the banner and a disabled button %s', async (blockReason, label, banner) => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SubmitEpisodeDialog userId={userId} stats={{ ...openStats, canSubmit: false, blockReason }} open onClose={() => {}} />
      </QueryClientProvider>,
    );
    screen.getByText(banner);
    expect((screen.getByRole('button', { name: label }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Submit Episode' })).toBeNull();
  });
});

describe('the monthly limit on the largest plan (issue 43, item 4)', () => {
  const atLimit = { ...openStats, subscriptionTier: 'scale', limit: 4, thisMonth: 4, currentCount: 4, canSubmit: false, blockReason: 'monthly_limit' } as const;

  it('offers no upgrade: one more episode this month, or sales for Enterprise', () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SubmitEpisodeDialog userId={userId} stats={atLimit} open onClose={() => {}} />
        <GatingBox stats={atLimit} />
      </QueryClientProvider>,
    );
    screen.getByText('Monthly episode submission limit reached. Buy one more episode for this month, or contact sales about Enterprise.');
    screen.getByText('Monthly limit reached. Your plan allows 4 episode(s) per month.');
    screen.getByText('You are on our largest plan: buy one more episode for this month, contact sales about Enterprise, or wait until next month.');
    expect(screen.queryByText(/upgrade your plan/i)).toBeNull();
  });

  it("counts the plan's episodes apart from the extras bought for the month", () => {
    render(<GatingBox stats={{ ...atLimit, limit: 5, thisMonth: 5, currentCount: 5, extraEpisodes: 1 }} />);
    screen.getByText('Monthly limit reached. Your plan allows 4 episode(s) per month.');
    screen.getByText('This month also has 1 extra episode(s) you bought.');
  });
});

describe('the title and guests', () => {
  it('sends the title and the guests as typed (trimmed, names split at commas), and refuses an eleventh guest', async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      return new Response('{"success":true}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SubmitEpisodeDialog userId={userId} stats={openStats} open onClose={() => {}} />
        <Toaster />
      </QueryClientProvider>,
    );
    const guests = screen.getByLabelText('Guests (optional, separated by commas)');
    await userEvent.type(guests, Array.from({ length: 11 }, (_, i) => `Guest ${i}`).join(', '));
    await userEvent.click(screen.getByRole('button', { name: 'Submit Episode' }));
    await screen.findByText('At most 10 guests.');
    expect(bodies).toEqual([]);
    await userEvent.clear(guests);
    await userEvent.type(guests, ' Ana Ruiz ,, Tom Lee ');
    await userEvent.type(screen.getByLabelText('Episode title (optional)'), '  Why Budgets Fail ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Episode' }));
    await screen.findByText('Episode Submitted Successfully!');
    expect(bodies).toEqual([
      expect.objectContaining({ episodeData: expect.objectContaining({ title: 'Why Budgets Fail', guests: ['Ana Ruiz', 'Tom Lee'] }) }),
    ]);
  });
});
