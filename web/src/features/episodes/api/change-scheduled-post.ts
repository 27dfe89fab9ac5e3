// The posting calendar's shared part: each change answers the post as it now is, and the
// episode it belongs to is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

/** A mutation on one post of episode `episodeId`, refreshing the episode when it settles. */
export function usePostChange<Vars, Result>(episodeId: string, request: (vars: Vars) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    // Also after a refusal: the post may have changed meanwhile (posted by the worker).
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.episodes.detail(episodeId) }),
  });
}
