// The dashboard's requests, started at startup beside the signed-in user request rather than
// after it: the dashboard then renders once, with its data, one round trip sooner.
import type { QueryClient } from '@tanstack/react-query';
import { connectionsQuery } from '@/features/connections/api/get-connections';
import { episodeStatsQuery } from '@/features/episodes/api/get-episode-stats';
import { episodesQuery } from '@/features/episodes/api/get-episodes';
import { profileRecordQuery } from '@/features/onboarding/api/get-profile-record';
import { currentAccountQuery } from '@/lib/current-account';
import { hasStoredSession } from '@/lib/supabase';
import { decideAccess } from '../../access';
import { dashboardPage, findRoute } from '../../route-table';

/**
 * On the dashboard's addresses with a stored session, fetches the signed-in user and the
 * dashboard's data at once. What was fetched is kept only if the dashboard is then shown: a
 * stale session (answered as signed out) or an account sent elsewhere (onboarding) must not
 * find these answers cached when it later reaches the dashboard.
 */
export function preloadDashboardData(queryClient: QueryClient, pathname: string): void {
  if (findRoute(pathname)?.page !== dashboardPage || !hasStoredSession()) return;
  const shown = queryClient.fetchQuery(currentAccountQuery).then(
    (account) => account !== null && decideAccess(pathname, account).kind === 'render',
    () => false,
  );
  void queryClient.prefetchQuery(episodeStatsQuery);
  void queryClient.prefetchQuery(episodesQuery);
  void queryClient.prefetchQuery(connectionsQuery);
  void queryClient.prefetchQuery(profileRecordQuery);
  const keys = [episodeStatsQuery.queryKey, episodesQuery.queryKey, connectionsQuery.queryKey, profileRecordQuery.queryKey];
  void shown.then((dashboardShown) => {
    if (dashboardShown) return;
    // A removed query's answer, even one still on its way, never reaches the cache. One a
    // screen already uses is that screen's own.
    for (const queryKey of keys) {
      const query = queryClient.getQueryCache().find({ queryKey, exact: true });
      if (query && query.getObserversCount() === 0) queryClient.getQueryCache().remove(query);
    }
  });
}
