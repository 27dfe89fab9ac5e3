// GET /api/oauth-connections: every provider with what the panel needs (never a token).
import type { ConnectionEntry } from '@domain/connection-status';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from '@/lib/api-client';

export const connectionsKey = ['/api/oauth-connections'] as const;

export const connectionsQuery = queryOptions({
  queryKey: connectionsKey,
  queryFn: () => apiLoad<ConnectionEntry[]>('/api/oauth-connections'),
});

export function useConnections() {
  return useQuery(connectionsQuery);
}
