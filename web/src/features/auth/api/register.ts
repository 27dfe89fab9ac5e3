// Sign-up through Supabase Auth (supabase-js then holds the SPA's session).
import type { RegisterPayload } from '@domain/auth-schemas';
import { useMutation } from '@tanstack/react-query';
import { authClient } from '@/lib/supabase';

async function register(payload: RegisterPayload): Promise<{ email: string }> {
  const { data, error } = await (await authClient()).signUp({
    email: payload.email,
    password: payload.password,
    options: { data: { first_name: payload.firstName, last_name: payload.lastName } },
  });
  if (error) throw error;
  return { email: data.user?.email ?? payload.email };
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
