// /episodes/:id: one episode's status with live progress, its finished files in Google Drive, its
// posting calendar, and what was made from its words (transcript, show notes, blog post).
import { timeAgo } from '@domain/relative-time';
import { Link, useParams } from 'react-router-dom';
import { ErrorAlert } from '@/components/alert';
import { FullPageSpinner } from '@/components/spinner';
import { ApiError } from '@/lib/api-client';
import { useEpisode } from '@/features/episodes/api/get-episode';
import { EpisodeContentPanel } from '@/features/episodes/components/episode-content';
import { EpisodeFiles } from '@/features/episodes/components/episode-files';
import { EpisodeStatus } from '@/features/episodes/components/episode-status';
import { PostingCalendar } from '@/features/episodes/components/posting-calendar';
import { episodeTexts, episodePageTexts as t } from '@/features/episodes/texts';
import { useDeferredAnswer } from '@/lib/use-deferred-answer';

export default function EpisodePage() {
  const { id = '' } = useParams();
  const episode = useDeferredAnswer(useEpisode(id));
  const notFound = episode.error instanceof ApiError && episode.error.status === 404;
  return (
    <main className="mx-auto flex w-full max-w-4xl flex-col gap-4 px-4 py-8">
      <Link className="link self-start" to="/episodes">
        {t.backToList}
      </Link>
      {episode.isPending && <FullPageSpinner label={t.loading} />}
      {notFound && (
        <>
          <h1 className="text-3xl font-bold">{t.notFoundTitle}</h1>
          <p>{t.notFound}</p>
        </>
      )}
      {episode.isError && !notFound && <ErrorAlert title={t.loadFailedTitle} message={episode.error.message} />}
      {episode.data && (
        <>
          <div>
            <h1 className="text-3xl font-bold break-words">{episode.data.title}</h1>
            <p className="text-base-content/70">
              {t.submitted(episode.data.submittedAt ? timeAgo(new Date(episode.data.submittedAt)) : episodeTexts.dateUnknown)}
            </p>
          </div>
          <EpisodeStatus episode={episode.data} />
          {episode.data.processing && (
            <>
              <EpisodeFiles outputs={episode.data.processing.outputs} />
              <PostingCalendar episodeId={episode.data.id} posts={episode.data.processing.posts} />
            </>
          )}
          {episode.data.processing && <EpisodeContentPanel episodeId={episode.data.id} status={episode.data.processing.status} />}
        </>
      )}
    </main>
  );
}
