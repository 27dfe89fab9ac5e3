// @vitest-environment jsdom
// A reset link without a token (spec section 8): 'Invalid Reset Link', then /login. Moved here
// from the browser tests (tests/e2e/accounts.test.ts keeps the reset journey and a bad token).
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Notifications } from '@/app/notifications';
import { createQueryClient } from '@/lib/query-client';
import ResetPasswordPage from './reset-password-page';

vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), currentAccessToken: async () => null }));

beforeEach(() => {
  // jsdom has no matchMedia; the toast area asks it about reduced motion.
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as never;
});
afterEach(cleanup);

describe('the reset-password screen', () => {
  it("without a token toasts 'Invalid Reset Link' and goes to /login", async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/reset-password']}>
          <Routes>
            <Route path="/reset-password" element={<ResetPasswordPage />} />
            <Route path="/login" element={<p>the sign-in screen</p>} />
          </Routes>
        </MemoryRouter>
        <Notifications />
      </QueryClientProvider>,
    );
    await screen.findByText('Invalid Reset Link');
    await screen.findByText('This password reset link is invalid or has expired.');
    await screen.findByText('the sign-in screen');
    expect(screen.queryByRole('button', { name: 'Reset Password' })).toBeNull();
  });
});
