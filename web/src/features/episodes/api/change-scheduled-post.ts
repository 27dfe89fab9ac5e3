// The posting calendar's shared part: each change answers the post as it now is, and the
// episode it belongs to is read again.
import type { ScheduledPost } from '@domain/episode-page';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { episodeKey } from './get-episode';

export interface PostChangeResult {
  post: ScheduledPost;
}

/** A mutation on one post of episode `episodeId`, refreshing the episode when it settles. */
export function usePostChange<Vars>(episodeId: string, request: (vars: Vars) => Promise<PostChangeResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    // Also after a refusal: the post may have changed meanwhile (posted by the worker).
    onSettled: () => queryClient.invalidateQueries({ queryKey: episodeKey(episodeId) }),
  });
}
