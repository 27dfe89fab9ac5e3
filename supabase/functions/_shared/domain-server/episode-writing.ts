// What the writing engine wrote for an episode (docs/decisions.md "The writing engine"), as the
// submission job puts it in the processing plan for the join: the titles it suggests, the show
// notes, the blog article (Markdown and HTML are made from it with the episode's link once the
// episode is delivered) and each clip's title and posts, in the plan's clip order.
import { z } from 'zod';
import { clipPostsSchema } from '../domain/episode-clips.ts';
import { quoteSchema, showNotesSchema } from '../domain/episode-content.ts';

/** A blog article: an introduction, headed sections of paragraphs, and quotes said in the episode. */
export const blogArticleSchema = z.object({
  title: z.string().min(1),
  introduction: z.string(),
  sections: z.array(z.object({ heading: z.string().min(1), paragraphs: z.array(z.string()) })),
  quotes: z.array(quoteSchema),
});
export type BlogArticle = z.infer<typeof blogArticleSchema>;

export const clipTextsSchema = z.object({ title: z.string().min(1), posts: clipPostsSchema });
export type ClipTexts = z.infer<typeof clipTextsSchema>;

export const episodeWritingSchema = z.object({
  /** `extractive`, or `openai <model>`. */
  engine: z.string(),
  /** Title suggestions, best first (none when the engine has none to give). */
  titles: z.array(z.string().min(1)),
  notes: showNotesSchema,
  article: blogArticleSchema,
  /** In the plan's clip order; null for a clip without words (the join names it by its file). */
  clips: z.array(clipTextsSchema.nullable()),
});
export type EpisodeWriting = z.infer<typeof episodeWritingSchema>;
