// The blog post as readers will see it (its Markdown rendered, as WordPress receives it), editable
// until it is on WordPress; its WordPress post with its state and link.
import type { BlogPost } from '@domain/episode-content';
import type { ScheduledPost } from '@domain/episode-page';
import { markdownToHtml } from '@domain/markdown';
import { lazy, Suspense, useState } from 'react';
import { episodePageTexts as p, reviewTexts as t } from '../texts';
import { PostRows } from './post-rows';

const BlogPostForm = lazy(() => import('./blog-post-form'));

interface BlogPostSectionProps {
  episodeId: string;
  blogPost: BlogPost;
  posts: ScheduledPost[];
  timeZone: string | null;
  editable: boolean;
}

export function BlogPostSection({ episodeId, blogPost, posts, timeZone, editable }: BlogPostSectionProps) {
  const [editing, setEditing] = useState(false);
  // The title is WordPress's own: the Markdown's leading heading is not shown twice.
  const body = blogPost.markdown.replace(/^#\s+[^\n]*\n+/, '');
  return (
    <section aria-labelledby="blog-post-title" className="flex flex-col gap-2">
      <h3 id="blog-post-title" className="text-lg font-semibold">
        {t.blogTitle}
      </h3>
      {blogPost.wordpress ? (
        <p className="text-sm">
          {p.wordpressPost(blogPost.wordpress.status)}
          {blogPost.wordpress.link && (
            <>
              {' '}
              <a className="link" href={blogPost.wordpress.link} target="_blank" rel="noreferrer">
                {p.openWordpressPost}
              </a>
            </>
          )}
          {' '}
          {t.blogOut}
        </p>
      ) : (
        posts.length > 0 && <p className="text-sm text-base-content/70">{t.blogWaits}</p>
      )}
      {posts.length > 0 && <PostRows episodeId={episodeId} label={t.blogPostGroup} posts={posts} timeZone={timeZone} link={blogPost.wordpress?.link} />}
      {editing ? (
        <Suspense fallback={null}>
          <BlogPostForm episodeId={episodeId} blogPost={blogPost} onDone={() => setEditing(false)} />
        </Suspense>
      ) : (
        <>
          <article className="rendered-post rounded-box border border-base-300 p-4 break-words">
            <h2>{blogPost.title}</h2>
            {/* markdownToHtml escapes every text and keeps only http(s) links. */}
            <div dangerouslySetInnerHTML={{ __html: markdownToHtml(body) }} />
          </article>
          {editable && !blogPost.wordpress && (
            <button type="button" className="btn btn-sm self-start" onClick={() => setEditing(true)}>
              {t.editBlog}
            </button>
          )}
        </>
      )}
    </section>
  );
}
