// The account actions, through supabase-js against Supabase Auth.
import type { ForgotPasswordPayload, LoginPayload, RegisterPayload } from '@domain/auth-schemas';
import { supabase } from '@/lib/supabase';

export async function register(payload: RegisterPayload): Promise<{ email: string }> {
  const { data, error } = await supabase.auth.signUp({
    email: payload.email,
    password: payload.password,
    options: { data: { first_name: payload.firstName, last_name: payload.lastName } },
  });
  if (error) throw error;
  return { email: data.user?.email ?? payload.email };
}

export async function login(payload: LoginPayload): Promise<void> {
  const { error } = await supabase.auth.signInWithPassword(payload);
  if (error) throw error;
}

export async function requestPasswordReset({ email }: ForgotPasswordPayload): Promise<void> {
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}/reset-password`,
  });
  if (error) throw error;
}

export class InvalidResetLinkError extends Error {}

/** Redeems the e-mailed recovery token, sets the new password, and ends that recovery session. */
export async function resetPassword(token: string, password: string): Promise<void> {
  const verified = await supabase.auth.verifyOtp({ token_hash: token, type: 'recovery' });
  if (verified.error || !verified.data.session) throw new InvalidResetLinkError(verified.error?.message);
  const updated = await supabase.auth.updateUser({ password });
  await supabase.auth.signOut({ scope: 'local' });
  if (updated.error) throw updated.error;
}
