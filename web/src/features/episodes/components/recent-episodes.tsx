// The first three episodes, newest first, with "... ago" times and their processing state; a
// failed one shows why and can be retried, or says what to do when trying again cannot help.
import { type Episode, RECENT_EPISODES_SHOWN } from '@domain/episodes';
import { canRetry, type ProcessingState } from '@domain/processing';
import { timeAgo } from '@domain/relative-time';
import { Link } from 'react-router-dom';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useEpisodes } from '../api/get-episodes';
import { useRetryEpisode } from '../api/retry-episode';
import { episodePageTexts, episodeTexts as t } from '../texts';

const statusStyles: Record<ProcessingState['status'], string> = {
  queued: 'text-base-content/70',
  processing: 'text-base-content/70',
  delivered: 'text-green-700',
  failed: 'text-red-700',
};

/** 'Processing: <stage> (n%)' with a progress bar, 'Delivered' or 'Failed: <reason>'. */
export function ProcessingLine({ title, state }: { title: string; state: ProcessingState }) {
  return (
    <span className={`flex items-center gap-2 text-sm break-words ${statusStyles[state.status]}`}>
      {t.processingState(state)}
      {state.status === 'processing' && (
        <progress className="progress w-24" value={state.progress} max={100} aria-label={t.processingProgress(title)} />
      )}
    </span>
  );
}

// The retry's mutation belongs to the list, not to the button: a retried episode is no longer
// failed once the list reloads, so its button goes away, and a mutation whose component has
// unmounted drops its mutate() callbacks (the 'Episode Queued Again' toast went missing that way).
function RetryButton({ episode, retry }: { episode: Episode; retry: ReturnType<typeof useRetryEpisode> }) {
  const pending = retry.isPending && retry.variables === episode.id;
  const onRetry = () =>
    retry.mutate(episode.id, {
      onSuccess: () => notify.success(t.retriedTitle, { description: t.retried(episode.title) }),
      onError: (error) => notify.error(t.retryFailedTitle, { description: errorMessage(error, t.retryFailed) }),
    });
  return (
    <button type="button" className="btn btn-outline btn-xs self-start" disabled={pending} onClick={onRetry}>
      {pending ? t.retrying : t.retry}
      <span className="sr-only"> {episode.title}</span>
    </button>
  );
}

export function RecentEpisodes() {
  const episodes = useEpisodes();
  const retry = useRetryEpisode();
  return (
    <section aria-labelledby="recent-episodes-title" className="flex flex-col gap-2">
      <h3 id="recent-episodes-title" className="font-semibold">
        {t.recentTitle}
      </h3>
      {episodes.isPending && (
        <p role="status" className="flex items-center gap-2 text-sm">
          <span className="loading loading-dots loading-sm" aria-hidden="true" />
          {t.loading}
        </p>
      )}
      {episodes.isError && <p className="text-sm text-red-700">{t.loadFailed}</p>}
      {episodes.data?.length === 0 && <p className="text-sm text-base-content/70">{t.noEpisodes}</p>}
      {episodes.data && episodes.data.length > 0 && (
        <ul className="flex flex-col divide-y divide-base-300 rounded-box border border-base-300">
          {episodes.data.slice(0, RECENT_EPISODES_SHOWN).map((episode) => (
            <li key={episode.id} className="flex flex-col gap-1 px-3 py-2">
              <span className="flex items-center justify-between gap-4">
                <Link className="link truncate font-medium" to={`/episodes/${episode.id}`}>
                  {episode.title}
                </Link>
                <span className="shrink-0 text-sm text-base-content/70">
                  {episode.submittedAt ? timeAgo(new Date(episode.submittedAt)) : t.dateUnknown}
                </span>
              </span>
              {episode.processing && <ProcessingLine title={episode.title} state={episode.processing} />}
              {episode.processing && canRetry(episode.processing) && <RetryButton episode={episode} retry={retry} />}
              {episode.processing?.status === 'failed' && episode.processing.failurePermanent && (
                <span className="text-sm break-words text-base-content/80">{t.permanentFailureAdvice}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {episodes.data && episodes.data.length > 0 && (
        <Link className="link link-primary self-start text-sm" to="/episodes">
          {episodePageTexts.viewAll}
        </Link>
      )}
    </section>
  );
}
