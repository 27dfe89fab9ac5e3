// The signed-in user (GET /api/auth/user): cached 5 min, kept 10 min, never retried; a 401
// means signed out (null). Shared by every feature that needs to know who is signed in.
// A failed load (a server error, no network) is not loaded again when a screen mounts either:
// only the person's 'Try again' (access-gate.tsx) asks again.
import { accountSchema } from '@domain/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from './api-client';
import { queryKeys } from './query-keys';

export const currentAccountQuery = queryOptions({
  queryKey: queryKeys.account,
  queryFn: () => apiLoad('/api/auth/user', accountSchema),
  staleTime: 5 * 60 * 1000,
  gcTime: 10 * 60 * 1000,
  retry: false,
  retryOnMount: false,
});

export function useCurrentAccount() {
  return useQuery(currentAccountQuery);
}
