// @vitest-environment jsdom
// The WordPress dialog's refusals before any request (spec sections 5 and 8): blank credentials
// toast 'Missing Information', and nothing is sent. Moved here from the browser tests
// (tests/e2e/connections.test.ts keeps the site's refusal and the connection). And where its
// site comes from: the profile's podcast website, asked for only when the profile has none.
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import WordpressDialog from './wordpress-dialog';

const network = vi.hoisted(() => ({ request: vi.fn(), profile: { podcastWebsite: 'https://podcast.example' } as Record<string, unknown> | null, loads: [] as string[] }));
vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), database: vi.fn(), currentAccessToken: async () => null }));
vi.mock('@/lib/api-client', async () => ({
  ...(await vi.importActual<typeof import('@/lib/api-client')>('@/lib/api-client')),
  apiRequest: network.request,
  // The profile as GET /api/airtable/user-data answers it (only the field the dialog reads).
  apiLoad: async (path: string) => {
    network.loads.push(path);
    return path === '/api/airtable/user-data' ? network.profile : null;
  },
}));

function renderDialog() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <WordpressDialog open onClose={() => {}} />
      <Toaster />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as never;
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  network.profile = { podcastWebsite: 'https://podcast.example' };
  network.loads.length = 0;
});

describe('the WordPress dialog', () => {
  it.each([
    ['a blank username', '   ', 'something'],
    ['a blank application password', 'editor', ''],
  ])("refuses %s with 'Missing Information' and sends nothing", async (_case, username, password) => {
    renderDialog();
    await waitFor(() => expect(network.loads).toEqual(['/api/airtable/user-data']));
    expect(screen.queryByLabelText('WordPress site')).toBeNull();
    if (username) await userEvent.type(screen.getByLabelText('Username'), username);
    if (password) await userEvent.type(screen.getByLabelText('Application password'), password);
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText('Missing Information');
    await screen.findByText('Please enter both username and application password');
    expect(network.request).not.toHaveBeenCalled();
  });

  it.each([
    ['no profile saved', null],
    ['a profile without a website', { podcastWebsite: null }],
    ['a blank website', { podcastWebsite: '   ' }],
  ])('asks for the site with %s', async (_case, profile) => {
    network.profile = profile;
    renderDialog();
    await screen.findByLabelText('WordPress site');
    expect(network.loads).toEqual(['/api/airtable/user-data']);
  });
});
