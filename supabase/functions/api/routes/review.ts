// The review screen's requests (issue 41): approve or drop a clip, edit its texts and moment,
// approve the episode (and its title), postpone or cancel all its posts, edit the blog post and the
// show notes, read and correct the transcript. Each is one SQL function called as the caller
// (20261128110400_review_before_posting.sql holds every rule: owner only, nothing already out,
// the platforms' limits); this file only checks the shapes and passes them on.
import { Hono } from 'hono';
import { z } from 'zod';
import { episodeClipSchema } from '../../_shared/domain/episode-clips.ts';
import { blogPostSchema, showNotesSchema } from '../../_shared/domain/episode-content.ts';
import {
  blogPostEditSchema,
  clipMomentSchema,
  clipReviewSchema,
  clipTextsSchema,
  episodePostsChangeSchema,
  episodeTitleSchema,
  episodeTranscriptSchema,
  showNotesEditSchema,
  transcriptSavedSchema,
  transcriptSaveSchema,
} from '../../_shared/domain/review.ts';
import { databaseError, type DatabaseError } from '../../_shared/database-errors.ts';
import { HttpError, parseJsonBody, pathId } from '../../_shared/http-error.ts';
import { requireCaller } from '../../_shared/session.ts';
import { userClient } from '../../_shared/supabase-clients.ts';

const episodeId = (value: string) => pathId(value, 'No such episode.');
const clipId = (value: string) => pathId(value, 'No such clip.');

/** The function's answer in `schema`, or its refusal as the error contract says. */
function answer<T extends z.core.$ZodType>(schema: T, data: unknown, error: DatabaseError | null, action: string): z.infer<T> {
  if (error) throw databaseError(error, action);
  return z.parse(schema, data);
}

export const reviewRoutes = new Hono();

reviewRoutes.post('/clips/:id/review', async (c) => {
  const caller = await requireCaller(c);
  const id = clipId(c.req.param('id'));
  const { action } = await parseJsonBody(c.req.raw, clipReviewSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('review_clip', { p_clip_id: id, p_action: action });
  return c.json({ clip: answer(episodeClipSchema, data, error, 'Could not review the clip') });
});

reviewRoutes.patch('/clips/:id', async (c) => {
  const caller = await requireCaller(c);
  const id = clipId(c.req.param('id'));
  const { title, posts } = await parseJsonBody(c.req.raw, clipTextsSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('update_clip_texts', { p_clip_id: id, p_title: title, p_posts: { ...posts } });
  return c.json({ clip: answer(episodeClipSchema, data, error, "Could not save the clip's texts") });
});

reviewRoutes.put('/clips/:id/moment', async (c) => {
  const caller = await requireCaller(c);
  const id = clipId(c.req.param('id'));
  const { firstSentence, endSentence } = await parseJsonBody(c.req.raw, clipMomentSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('set_clip_moment', {
    p_clip_id: id, p_first_sentence: firstSentence, p_end_sentence: endSentence,
  });
  return c.json({ clip: answer(episodeClipSchema, data, error, 'Could not move the clip') });
});

reviewRoutes.post('/episodes/:id/approve', async (c) => {
  const caller = await requireCaller(c);
  const id = episodeId(c.req.param('id'));
  const { error } = await userClient(caller.accessToken).rpc('approve_episode', { p_episode_id: id });
  if (error) throw databaseError(error, 'Could not approve the episode');
  return c.json({ success: true });
});

reviewRoutes.post('/episodes/:id/posts', async (c) => {
  const caller = await requireCaller(c);
  const id = episodeId(c.req.param('id'));
  const change = await parseJsonBody(c.req.raw, episodePostsChangeSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('change_episode_posts', {
    p_episode_id: id, p_action: change.action, p_days: change.action === 'postpone' ? change.days : undefined,
  });
  if (error) throw databaseError(error, "Could not change the episode's posts");
  return c.json({ changed: data });
});

reviewRoutes.patch('/episodes/:id/title', async (c) => {
  const caller = await requireCaller(c);
  const id = episodeId(c.req.param('id'));
  const { title } = await parseJsonBody(c.req.raw, episodeTitleSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('rename_episode', { p_episode_id: id, p_title: title });
  if (error) throw databaseError(error, 'Could not rename the episode');
  return c.json(data);
});

reviewRoutes.patch('/episodes/:id/blog-post', async (c) => {
  const caller = await requireCaller(c);
  const id = episodeId(c.req.param('id'));
  const { title, markdown } = await parseJsonBody(c.req.raw, blogPostEditSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('update_blog_post', { p_episode_id: id, p_title: title, p_markdown: markdown });
  return c.json({ blogPost: answer(blogPostSchema, data, error, 'Could not save the blog post') });
});

reviewRoutes.patch('/episodes/:id/show-notes', async (c) => {
  const caller = await requireCaller(c);
  const id = episodeId(c.req.param('id'));
  const { summary, chapterTitles, keywords } = await parseJsonBody(c.req.raw, showNotesEditSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('update_show_notes', {
    p_episode_id: id, p_summary: summary, p_chapter_titles: chapterTitles, p_keywords: keywords,
  });
  return c.json({ showNotes: answer(showNotesSchema, data, error, 'Could not save the show notes') });
});

reviewRoutes.get('/episodes/:id/transcript', async (c) => {
  const caller = await requireCaller(c);
  const id = episodeId(c.req.param('id'));
  const { data, error } = await userClient(caller.accessToken).rpc('episode_transcript', { p_episode_id: id });
  if (error) throw databaseError(error, 'Could not load the transcript');
  if (!data) throw new HttpError(404, 'This episode has no transcript.');
  return c.json(episodeTranscriptSchema.parse(data));
});

reviewRoutes.put('/episodes/:id/transcript', async (c) => {
  const caller = await requireCaller(c);
  const id = episodeId(c.req.param('id'));
  const { version, words } = await parseJsonBody(c.req.raw, transcriptSaveSchema);
  const { data, error } = await userClient(caller.accessToken).rpc('save_transcript', { p_episode_id: id, p_version: version, p_words: words });
  return c.json(answer(transcriptSavedSchema, data, error, 'Could not save the transcript'));
});
