// Sign-in with a password through Supabase Auth (supabase-js then holds the SPA's session).
import type { LoginPayload } from '@domain/auth-schemas';
import { useMutation } from '@tanstack/react-query';
import { authClient } from '@/lib/supabase';

async function login(payload: LoginPayload): Promise<void> {
  const { error } = await (await authClient()).signInWithPassword(payload);
  if (error) throw error;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
