// GET /api/admin/hosting-setups: subscribers whose podcast hosting is being set up, longest
// waiting first, one page at a time.
import { hostingSetupPageSchema, type HostingSetup } from '@domain/admin-hosting';
import type { Page } from '@domain/admin-resubmit';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

// Not the default load: a signed-out visitor's 401 is an error here (Access Denied), not an empty list.
function getHostingSetups(cursor: string | null): Promise<Page<HostingSetup>> {
  return apiRequest(
    'GET',
    cursor ? `/api/admin/hosting-setups?cursor=${encodeURIComponent(cursor)}` : '/api/admin/hosting-setups',
    hostingSetupPageSchema,
  );
}

const hostingSetupsQuery = infiniteQueryOptions({
  queryKey: queryKeys.admin.hostingSetups,
  queryFn: ({ pageParam }) => getHostingSetups(pageParam),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

export function useHostingSetups() {
  return useInfiniteQuery(hostingSetupsQuery);
}
