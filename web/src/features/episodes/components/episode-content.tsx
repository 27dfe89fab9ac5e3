// What the content engine made from the episode's words: show notes (summary, chapters, quotes,
// keywords) and the blog post, each editable while the episode is delivered (the blog post until
// it is on WordPress), the transcript as text where the editor has none to show, and why anything
// was not made.
import type { EpisodeContent } from '@domain/episode-content';
import type { EpisodeProcessingDetail } from '@domain/episode-page';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Panel } from '@/components/panel';
import { isContentMade, useEpisodeContent } from '../api/get-episode-content';
import { episodePageTexts as t, reviewTexts } from '../texts';
import { BlogPostSection } from './blog-post-section';

const ShowNotesForm = lazy(() => import('./show-notes-form'));

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

function ShowNotesView({ episodeId, notes, editable }: { episodeId: string; notes: NonNullable<EpisodeContent['showNotes']>; editable: boolean }) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <Suspense fallback={null}>
        <ShowNotesForm episodeId={episodeId} notes={notes} onDone={() => setEditing(false)} />
      </Suspense>
    );
  }
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
      {editable && (
        <button type="button" className="btn btn-sm self-start" onClick={() => setEditing(true)}>
          {reviewTexts.editNotes}
        </button>
      )}
    </div>
  );
}

interface ContentPanelProps {
  episodeId: string;
  processing: EpisodeProcessingDetail;
  /** The transcript editor shows the words: the plain text only where it has none. */
  transcriptEditor: boolean;
}

export function EpisodeContentPanel({ episodeId, processing, transcriptEditor }: ContentPanelProps) {
  const finished = isContentMade(processing.status);
  const content = useEpisodeContent(episodeId, processing.status);
  const made = content.data?.content;
  const editable = processing.status === 'delivered';
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
                    {t.problemBadge(problem.stage)}
                  </span>
                  {problem.reason}
                </li>
              ))}
            </ul>
          )}
          {made.showNotes && <ShowNotesView episodeId={episodeId} notes={made.showNotes} editable={editable} />}
          {made.blogPost && (
            <BlogPostSection
              episodeId={episodeId}
              blogPost={made.blogPost}
              posts={processing.posts.filter((post) => post.kind === 'article')}
              timeZone={processing.review.timeZone}
              editable={editable}
            />
          )}
          {made.transcript && !transcriptEditor && (
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
