// @vitest-environment jsdom
// The profile card with no saved profile (spec section 2): the empty state, and 'Complete Your
// Profile' opens the configuration form. Moved here from the browser tests
// (tests/e2e/onboarding.test.ts keeps completing and managing the profile).
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { testAccount } from '@/testing/account';
import { ProfileCard } from './profile-card';

const account = testAccount();
// The network: the signed-in account, and no profile saved yet.
vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), database: vi.fn(), currentAccessToken: async () => null }));
vi.mock('@/lib/api-client', async () => ({
  ...(await vi.importActual<typeof import('@/lib/api-client')>('@/lib/api-client')),
  apiLoad: async (path: string) => (path === '/api/auth/user' ? account : null),
}));

afterEach(cleanup);

describe('the profile card without a saved profile', () => {
  it("shows the empty state, and 'Complete Your Profile' opens the configuration form", async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/']}>
          <ProfileCard />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const card = await screen.findByRole('region', { name: 'Your Profile' });
    await within(card).findByText('No profile data found in the records service.');
    await userEvent.click(within(card).getByRole('button', { name: 'Complete Your Profile' }));
    // The form's chunk (with the profile's choice lists) is compiled on first use here: slow.
    await within(card).findByRole('button', { name: 'Save Configuration' }, { timeout: 20_000 });
  }, 30_000);
});
