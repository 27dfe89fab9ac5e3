// The account actions. Sign-up, sign-in and the reset go to Supabase Auth through supabase-js,
// which then holds the SPA's session; the reset request goes through the spec's /api path, whose
// answer never tells whether the account exists.
import type { ForgotPasswordPayload, LoginPayload, RegisterPayload } from '@domain/auth-schemas';
import { apiRequest } from '@/lib/api-client';
import { authClient } from '@/lib/supabase';

export async function register(payload: RegisterPayload): Promise<{ email: string }> {
  const { data, error } = await (await authClient()).signUp({
    email: payload.email,
    password: payload.password,
    options: { data: { first_name: payload.firstName, last_name: payload.lastName } },
  });
  if (error) throw error;
  return { email: data.user?.email ?? payload.email };
}

export async function login(payload: LoginPayload): Promise<void> {
  const { error } = await (await authClient()).signInWithPassword(payload);
  if (error) throw error;
}

/** POST /api/auth/forgot-password: the server answers alike whether or not the account exists. */
export async function requestPasswordReset(payload: ForgotPasswordPayload): Promise<void> {
  await apiRequest('POST', '/api/auth/forgot-password', payload);
}

/** Redeems the e-mailed recovery token, sets the new password, and ends that recovery session. */
export async function resetPassword(token: string, password: string): Promise<void> {
  const auth = await authClient();
  const verified = await auth.verifyOtp({ token_hash: token, type: 'recovery' });
  if (verified.error || !verified.data.session) throw verified.error ?? new Error('This password reset link is invalid or has expired.');
  const updated = await auth.updateUser({ password });
  await auth.signOut({ scope: 'local' });
  if (updated.error) throw updated.error;
}
