// What the content engine made from the episode's words: show notes (summary, chapters, quotes,
// keywords), the blog post and the transcript, and why anything was not made.
import type { EpisodeContent } from '@domain/episode-content';
import type { ProcessingStatus } from '@domain/processing';
import type { ReactNode } from 'react';
import { Panel } from '@/components/panel';
import { isContentMade, useEpisodeContent } from '../api/get-episode-content';
import { episodePageTexts as t } from '../texts';

/** A titled part of the show notes (its heading names it for assistive technology). */
function NotesPart({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

function ShowNotesView({ notes }: { notes: NonNullable<EpisodeContent['showNotes']> }) {
  return (
    <div className="flex flex-col gap-3">
      <NotesPart id="summary-title" title={t.summaryTitle}>
        <p className="break-words">{notes.summary}</p>
      </NotesPart>
      {notes.chapters.length > 0 && (
        <NotesPart id="chapters-title" title={t.chaptersTitle}>
          <ol className="list-inside list-decimal">
            {notes.chapters.map((chapter) => (
              <li key={chapter.start} className="break-words">
                <span className="font-mono text-sm">{chapter.time}</span> {chapter.title}
              </li>
            ))}
          </ol>
        </NotesPart>
      )}
      {notes.quotes.length > 0 && (
        <NotesPart id="quotes-title" title={t.quotesTitle}>
          <ul className="flex flex-col gap-1">
            {notes.quotes.map((quote) => (
              <li key={quote.start} className="break-words">
                <span className="font-mono text-sm">{quote.time}</span> <q>{quote.text}</q>
              </li>
            ))}
          </ul>
        </NotesPart>
      )}
      {notes.keywords.length > 0 && (
        <NotesPart id="keywords-title" title={t.keywordsTitle}>
          <ul className="flex flex-wrap gap-1">
            {notes.keywords.map((keyword) => (
              <li key={keyword} className="badge badge-outline">
                {keyword}
              </li>
            ))}
          </ul>
        </NotesPart>
      )}
    </div>
  );
}

export function EpisodeContentPanel({ episodeId, status }: { episodeId: string; status: ProcessingStatus | null }) {
  const finished = isContentMade(status);
  const content = useEpisodeContent(episodeId, status);
  const made = content.data?.content;
  return (
    <Panel titleId="episode-content-title" title={t.contentTitle}>
      {!finished && <p className="text-base-content/70">{t.contentPending}</p>}
      {finished && content.isPending && <p role="status">{t.contentLoading}</p>}
      {content.isError && (
        <p className="text-red-700">
          {t.contentLoadFailed}: {content.error.message}
        </p>
      )}
      {content.isSuccess && !made && <p className="text-base-content/70">{t.contentNone}</p>}
      {made && (
        <div className="flex flex-col gap-4">
          {made.problems.length > 0 && (
            <ul className="flex flex-col gap-1 text-sm">
              {made.problems.map((problem) => (
                <li key={problem.stage} className="break-words">
                  <span className="badge badge-warning mr-2">
                    {t.notMade}: {problem.stage}
                  </span>
                  {problem.reason}
                </li>
              ))}
            </ul>
          )}
          {made.showNotes && <ShowNotesView notes={made.showNotes} />}
          {made.blogPost && (
            <details className="rounded-box border border-base-300 p-3">
              <summary className="cursor-pointer font-semibold">
                {t.blogPostTitle}: {made.blogPost.title}
              </summary>
              {made.blogPost.wordpress && (
                <p className="mt-2 text-sm">
                  {t.wordpressPost(made.blogPost.wordpress.status)}
                  {made.blogPost.wordpress.link && (
                    <>
                      {' '}
                      <a className="link" href={made.blogPost.wordpress.link} target="_blank" rel="noreferrer">
                        {t.openWordpressPost}
                      </a>
                    </>
                  )}
                </p>
              )}
              <pre className="mt-2 text-sm break-words whitespace-pre-wrap">{made.blogPost.markdown}</pre>
            </details>
          )}
          {made.transcript && (
            <details className="rounded-box border border-base-300 p-3">
              <summary className="cursor-pointer font-semibold">
                {t.transcriptTitle} (
                {t.transcriptMeta(made.transcript.wordCount, made.transcript.engine, made.transcript.language)})
              </summary>
              <pre className="mt-2 max-h-96 overflow-y-auto text-sm break-words whitespace-pre-wrap">
                {made.transcript.text}
              </pre>
            </details>
          )}
        </div>
      )}
    </Panel>
  );
}
