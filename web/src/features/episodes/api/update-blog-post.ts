// PATCH /api/episodes/:id/blog-post {title, markdown}: the blog post before it is on WordPress.
import { blogPostSchema } from '@domain/episode-content';
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

const answer = z.object({ blogPost: blogPostSchema });

export function useUpdateBlogPost(episodeId: string) {
  return useEpisodeChange(episodeId, (edit: { title: string; markdown: string }) =>
    apiRequest('PATCH', `/api/episodes/${encodeURIComponent(episodeId)}/blog-post`, answer, { body: edit }),
  );
}
