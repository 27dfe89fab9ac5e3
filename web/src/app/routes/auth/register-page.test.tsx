// @vitest-environment jsdom
// Sign-up's validation messages (spec section 8), shown without a server: moved here from the
// browser tests (tests/e2e/accounts.test.ts keeps the journeys and the screen's axe check).
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import RegisterPage from './register-page';

const auth = vi.hoisted(() => ({ signUp: vi.fn() }));
vi.mock('@/lib/supabase', () => ({ authClient: async () => auth, currentAccessToken: async () => null }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('the sign-up form', () => {
  it("shows the spec's validation messages and sends nothing", async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/register']}>
          <RegisterPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'different');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    for (const message of ['First name is required', 'Last name is required', 'Invalid email address', 'Password must be at least 8 characters']) {
      expect(await screen.findAllByText(message)).toHaveLength(1);
    }
    // Each message is tied to its field for screen readers.
    expect(screen.getByLabelText('First name').getAttribute('aria-invalid')).toBe('true');
    expect(auth.signUp).not.toHaveBeenCalled();
  });
});
