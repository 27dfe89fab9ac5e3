// Every change to a delivered episode (a post's date, a clip's texts, the transcript...): each
// answers what it changed, and the episode (its page, content and transcript, all under its key)
// is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

/** A mutation on episode `episodeId`, refreshing everything read of it when it settles. */
export function useEpisodeChange<Vars, Result>(episodeId: string, request: (vars: Vars) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    // Also after a refusal: the episode may have changed meanwhile (a post went out).
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.episodes.detail(episodeId) }),
  });
}
