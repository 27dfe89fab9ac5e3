// Logout (spec sections 2 and 7): POST /api/auth/logout, then clear cached data and load / afresh.
// A failed logout request is only logged; the local session is ended regardless.
import type { QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { authClient } from '@/lib/supabase';

export async function logout(queryClient: QueryClient): Promise<void> {
  try {
    await apiRequest('POST', '/api/auth/logout');
  } catch (error) {
    console.error('Logout request failed', error);
  }
  await (await authClient()).signOut({ scope: 'local' });
  queryClient.clear();
  window.location.assign('/');
}
