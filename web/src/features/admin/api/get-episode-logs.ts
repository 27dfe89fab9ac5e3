// GET /api/admin/episode-logs: submission logs, newest first, one page at a time.
import { submissionLogPageSchema, type Page, type SubmissionLog } from '@domain/admin-resubmit';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

// Not the default load: a signed-out visitor's 401 is an error here (Access Denied), not an empty list.
function getEpisodeLogs(cursor: string | null): Promise<Page<SubmissionLog>> {
  return apiRequest(
    'GET',
    cursor ? `/api/admin/episode-logs?cursor=${encodeURIComponent(cursor)}` : '/api/admin/episode-logs',
    submissionLogPageSchema,
  );
}

export const episodeLogsQuery = infiniteQueryOptions({
  queryKey: queryKeys.admin.episodeLogs,
  queryFn: ({ pageParam }) => getEpisodeLogs(pageParam),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

export function useEpisodeLogs() {
  return useInfiniteQuery(episodeLogsQuery);
}
