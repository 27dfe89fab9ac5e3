// GET /api/oauth-connections: every provider with what the panel needs (never a token).
import { connectionListSchema } from '@domain/connection-status';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const connectionsQuery = queryOptions({
  queryKey: queryKeys.connections,
  queryFn: () => apiLoad('/api/oauth-connections', connectionListSchema),
});

export function useConnections() {
  return useQuery(connectionsQuery);
}
