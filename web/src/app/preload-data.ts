// A screen's first requests, started at startup beside the signed-in user request rather than
// after it: the screen then renders once, with its data, one round trip sooner (and a chain of
// requests, such as the episode page's episode then its content, starts one round trip sooner).
// Only screens whose first load a subscriber or administrator waits on (issue 28 item 5).
import { ADMIN_CONSOLE_PATH } from '@domain/account';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { matchPath } from 'react-router-dom';
import { episodeLogsQuery } from '@/features/admin/api/get-episode-logs';
import { objectStorageFilesQuery } from '@/features/admin/api/get-object-storage-files';
import { plansQuery } from '@/features/billing/api/get-plans';
import { connectionsQuery } from '@/features/connections/api/get-connections';
import { episodeQuery } from '@/features/episodes/api/get-episode';
import { episodeContentQuery, isContentMade } from '@/features/episodes/api/get-episode-content';
import { hasEditableTranscript, transcriptQuery } from '@/features/episodes/api/get-transcript';
import { episodeStatsQuery } from '@/features/episodes/api/get-episode-stats';
import { episodesQuery } from '@/features/episodes/api/get-episodes';
import { podcastFeedQuery } from '@/features/podcast-feed/api/get-podcast-feed';
import { currentAccountQuery } from '@/lib/current-account';
import { profileRecordQuery } from '@/lib/profile-record';
import { queryKeys } from '@/lib/query-keys';
import { hasStoredSession } from '@/lib/supabase';
import { decideAccess } from './access';
import { dashboardPage, findRoute } from './route-table';

/** Starts the reads the screen at `pathname` makes first; answers their keys (none: nothing started). */
function startReads(queryClient: QueryClient, pathname: string): QueryKey[] {
  const route = findRoute(pathname);
  if (!route) return [];
  if (route.page === dashboardPage) {
    void queryClient.prefetchQuery(episodeStatsQuery);
    void queryClient.prefetchQuery(episodesQuery);
    void queryClient.prefetchQuery(connectionsQuery);
    void queryClient.prefetchQuery(profileRecordQuery);
    void queryClient.prefetchQuery(podcastFeedQuery);
    return [episodeStatsQuery.queryKey, episodesQuery.queryKey, connectionsQuery.queryKey, profileRecordQuery.queryKey, podcastFeedQuery.queryKey];
  }
  if (route.path === '/subscribe') {
    void queryClient.prefetchQuery(plansQuery);
    return [plansQuery.queryKey];
  }
  if (route.path === '/onboarding') {
    void queryClient.prefetchQuery(profileRecordQuery);
    return [profileRecordQuery.queryKey];
  }
  if (route.path === ADMIN_CONSOLE_PATH) {
    // The files once the server has let the caller read the logs, as the console asks.
    void queryClient.fetchInfiniteQuery(episodeLogsQuery).then(
      () => queryClient.prefetchInfiniteQuery(objectStorageFilesQuery),
      () => {
        // Not an administrator: the console says Access Denied.
      },
    );
    return [episodeLogsQuery.queryKey, objectStorageFilesQuery.queryKey];
  }
  const id = route.path === '/episodes/:id' ? matchPath(route.path, pathname)?.params.id : undefined;
  if (id) {
    // The content is asked for once the episode is finished, as the page does: cached earlier it
    // would stay the answer of an unfinished episode.
    void queryClient.fetchQuery(episodeQuery(id)).then(
      (episode) =>
        Promise.all([
          isContentMade(episode.processing?.status ?? null) ? queryClient.prefetchQuery(episodeContentQuery(id)) : undefined,
          hasEditableTranscript(episode.processing) ? queryClient.prefetchQuery(transcriptQuery(id)) : undefined,
        ]),
      () => {
        // The page asks again and shows the failure.
      },
    );
    return [queryKeys.episodes.detail(id), queryKeys.episodes.content(id), queryKeys.episodes.transcript(id)];
  }
  return [];
}

/**
 * Asks for the signed-in user at once, before React renders (the access gate waits for it on
 * every screen; a visitor without a stored session may still have the server's session cookie).
 * With a stored session, also fetches the first data of the screen at `pathname` (the dashboard,
 * the plans, the onboarding profile, an episode page, the admin console's logs). That is kept
 * only if the screen is then shown: a stale session (answered as signed out) or an account sent
 * elsewhere (onboarding) must not find these answers cached when it later reaches the screen.
 */
export function preloadScreenData(queryClient: QueryClient, pathname: string): void {
  const account = queryClient.fetchQuery(currentAccountQuery);
  const keys = hasStoredSession() ? startReads(queryClient, pathname) : [];
  void account
    .then(
      (user) => user !== null && decideAccess(pathname, user).kind === 'render',
      () => false,
    )
    .then((shown) => {
      if (shown) return;
      // A removed query's answer, even one still on its way, never reaches the cache. One a
      // screen already uses is that screen's own.
      for (const queryKey of keys) {
        const query = queryClient.getQueryCache().find({ queryKey, exact: true });
        if (query && query.getObserversCount() === 0) queryClient.getQueryCache().remove(query);
      }
    });
}
