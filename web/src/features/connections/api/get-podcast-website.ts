// The profile's podcast website: the WordPress site, unless the user has not given one yet.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { authClient, database } from '@/lib/supabase';

async function getPodcastWebsite(): Promise<string | null> {
  const { data: session } = await (await authClient()).getSession();
  const userId = session.session?.user.id;
  if (!userId) return null;
  const { data, error } = await (
    await database()
  )
    .from('profiles')
    .select('podcast_website')
    .eq('id', userId)
    .maybeSingle();
  if (error) throw new Error(error.message);
  return data?.podcast_website?.trim() || null;
}

const podcastWebsiteQuery = queryOptions({
  queryKey: queryKeys.podcastWebsite,
  queryFn: getPodcastWebsite,
  staleTime: 0,
});

export function usePodcastWebsite(enabled: boolean) {
  return useQuery({ ...podcastWebsiteQuery, enabled });
}
