// Logout (spec sections 2 and 7): POST /api/auth/logout, then clear cached data and load / afresh.
// A failed logout request is only logged; the local session is ended regardless.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, ignoredAnswer } from '@/lib/api-client';
import { authClient } from '@/lib/supabase';

async function logout(): Promise<void> {
  try {
    await apiRequest('POST', '/api/auth/logout', ignoredAnswer);
  } catch (error) {
    console.error('Logout request failed', error);
  }
  await (await authClient()).signOut({ scope: 'local' });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      queryClient.clear();
      window.location.assign('/');
    },
  });
}
