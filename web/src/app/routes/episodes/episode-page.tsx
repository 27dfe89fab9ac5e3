// /episodes/:id: one episode's status with live progress, then its review before posting: the
// title, where posting stands (and why it waits), each clip with its words, texts, moment and
// posts, the show notes and blog post, the transcript editor, and the finished files in Drive.
import type { EpisodeDetail, EpisodeProcessingDetail } from '@domain/episode-page';
import { timeAgo } from '@domain/relative-time';
import { Link, useParams } from 'react-router-dom';
import { ErrorAlert } from '@/components/alert';
import { FullPageSpinner } from '@/components/spinner';
import { ApiError } from '@/lib/api-client';
import { useEpisode } from '@/features/episodes/api/get-episode';
import { hasEditableTranscript, useTranscript } from '@/features/episodes/api/get-transcript';
import { EpisodeContentPanel } from '@/features/episodes/components/episode-content';
import { EpisodeFiles } from '@/features/episodes/components/episode-files';
import { EpisodeStatus } from '@/features/episodes/components/episode-status';
import { ClipReview } from '@/features/episodes/components/clip-review';
import { EpisodeTitle } from '@/features/episodes/components/episode-title';
import { ReviewStatus } from '@/features/episodes/components/review-status';
import { TranscriptEditor } from '@/features/episodes/components/transcript-editor';
import { episodeTexts, episodePageTexts as t } from '@/features/episodes/texts';
import { useDeferredAnswer } from '@/lib/use-deferred-answer';

function Delivered({ episode, processing }: { episode: EpisodeDetail; processing: EpisodeProcessingDetail }) {
  const delivered = processing.status === 'delivered';
  const transcript = useTranscript(episode.id, hasEditableTranscript(processing));
  return (
    <>
      {delivered && <ReviewStatus episode={episode} processing={processing} />}
      {/* The clips made so far, to watch while the rest of the episode is processed (each is delivered as soon as it is rendered). */}
      {(delivered || processing.clips.length > 0) && <ClipReview episodeId={episode.id} processing={processing} transcript={transcript.data} />}
      <EpisodeContentPanel episodeId={episode.id} processing={processing} transcriptEditor={Boolean(transcript.data)} />
      {transcript.data && <TranscriptEditor key={transcript.data.version} episodeId={episode.id} transcript={transcript.data} editable={delivered} />}
      <EpisodeFiles outputs={processing.outputs} />
    </>
  );
}

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
          <EpisodeTitle
            episode={episode.data}
            subtitle={t.submitted(episode.data.submittedAt ? timeAgo(new Date(episode.data.submittedAt)) : episodeTexts.dateUnknown)}
          />
          <EpisodeStatus episode={episode.data} />
          {episode.data.processing && <Delivered episode={episode.data} processing={episode.data.processing} />}
        </>
      )}
    </main>
  );
}
