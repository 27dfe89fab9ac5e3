// The episode page (issue 26, item 10): one episode of the caller's with its processing, outputs
// and posting calendar, and the calendar's changes (postpone, cancel, post now). Everything goes
// through PostgREST as the caller: public.episode_page() reads only the caller's own rows, and
// private.change_scheduled_post() decides which post may change.
import { Hono } from 'hono';
import {
  driveFileUrl,
  drivePreviewUrl,
  type EpisodeDetail,
  type EpisodeOutput,
  postponePostSchema,
  type ScheduledPost,
  scheduledPostSchema,
  storedEpisodeDetailSchema,
  type StoredOutput,
} from '../../_shared/domain/episode-page.ts';
import { episodeContentSchema, type EpisodeContentAnswer } from '../../_shared/domain/episode-content.ts';
import { PROCESSING_STATUSES } from '../../_shared/domain/processing.ts';
import { databaseError } from '../../_shared/database-errors.ts';
import { HttpError, parseJsonBody, pathId } from '../../_shared/http-error.ts';
import { requireCaller } from '../../_shared/session.ts';
import { userClient } from '../../_shared/supabase-clients.ts';

const EPISODE_NOT_FOUND = 'Episode not found';
const POST_NOT_FOUND = 'Scheduled post not found.';

function outputOf(stored: StoredOutput): EpisodeOutput {
  const driveUrl = stored.driveFileId ? driveFileUrl(stored.driveFileId, stored.driveUrl) : null;
  return {
    name: stored.name,
    kind: stored.kind,
    durationSeconds: stored.durationSeconds,
    width: stored.width,
    height: stored.height,
    driveFileId: stored.driveFileId ?? null,
    driveUrl,
    previewUrl: driveUrl && drivePreviewUrl(driveUrl),
  };
}

export const episodePageRoutes = new Hono();

episodePageRoutes.get('/episodes/:id', async (c) => {
  const caller = await requireCaller(c);
  // Not an id: no episode has it (answered like any other missing episode, never a 400/500).
  const id = pathId(c.req.param('id'), EPISODE_NOT_FOUND);
  const { data, error } = await userClient(caller.accessToken).rpc('episode_page', { p_episode_id: id });
  if (error) throw databaseError(error, 'Could not load the episode');
  if (!data) throw new HttpError(404, EPISODE_NOT_FOUND);
  const stored = storedEpisodeDetailSchema.parse(data);
  const detail: EpisodeDetail = {
    ...stored,
    processing: stored.processing && { ...stored.processing, outputs: stored.processing.outputs.map(outputOf) },
  };
  return c.json(detail);
});

// The episode's transcript, show notes and blog post (what the worker made from its words, on
// its latest processing): the caller's own episode only, like the page itself; an episode the
// built-in worker never took has none (404, as the page asks only once it is processed).
episodePageRoutes.get('/episodes/:id/content', async (c) => {
  const caller = await requireCaller(c);
  const id = pathId(c.req.param('id'), EPISODE_NOT_FOUND);
  const { data: latest, error } = await userClient(caller.accessToken)
    .from('episode_processing')
    .select('status, drive_folder_url, content, episode:episodes!inner(user_id)')
    .eq('episode_id', id)
    .eq('episode.user_id', caller.userId)
    .order('created_at', { ascending: false })
    .limit(1)
    .maybeSingle();
  if (error) throw databaseError(error, 'Could not load the episode');
  if (!latest) throw new HttpError(404, EPISODE_NOT_FOUND);
  const answer: EpisodeContentAnswer = {
    episodeId: id,
    status: PROCESSING_STATUSES.find((status) => status === latest.status) ?? null,
    driveFolderUrl: latest.drive_folder_url,
    // The worker writes it in the shape of EpisodeContent (worker/pipeline/content-stage.ts).
    content: latest.content === null ? null : episodeContentSchema.parse(latest.content),
  };
  return c.json(answer);
});

/** The post id of the path, or a 404 for anything that cannot be one. */
function postId(id: string): string {
  return pathId(id, POST_NOT_FOUND);
}

function answerOf(data: unknown, error: Parameters<typeof databaseError>[0] | null): { post: ScheduledPost } {
  if (error) throw databaseError(error, 'Could not change the scheduled post');
  return { post: scheduledPostSchema.parse(data) };
}

episodePageRoutes.patch('/scheduled-posts/:id', async (c) => {
  const caller = await requireCaller(c);
  const id = postId(c.req.param('id'));
  const { scheduledFor } = await parseJsonBody(c.req.raw, postponePostSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('postpone_scheduled_post', { p_post_id: id, p_scheduled_for: scheduledFor });
  return c.json(answerOf(data, error));
});

episodePageRoutes.post('/scheduled-posts/:id/cancel', async (c) => {
  const caller = await requireCaller(c);
  const id = postId(c.req.param('id'));
  const { data, error } = await userClient(caller.accessToken).rpc('cancel_scheduled_post', { p_post_id: id });
  return c.json(answerOf(data, error));
});

episodePageRoutes.post('/scheduled-posts/:id/post-now', async (c) => {
  const caller = await requireCaller(c);
  const id = postId(c.req.param('id'));
  const { data, error } = await userClient(caller.accessToken).rpc('post_scheduled_post_now', { p_post_id: id });
  return c.json(answerOf(data, error));
});
