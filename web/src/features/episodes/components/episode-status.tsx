// The episode page's status: the worker's stage and progress while it works (the page polls),
// the reason and a retry after a failure (advice instead when trying again cannot help), and the
// Drive folder once there is one.
import type { EpisodeDetail } from '@domain/episode-page';
import { canRetry } from '@domain/processing';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { Panel } from '@/components/panel';
import { useRetryEpisode } from '../api/retry-episode';
import { episodeTexts, episodePageTexts as t } from '../texts';

export function EpisodeStatus({ episode }: { episode: EpisodeDetail }) {
  const retry = useRetryEpisode();
  const processing = episode.processing;
  const onRetry = () =>
    retry.mutate(episode.id, {
      onSuccess: () => notify.success(t.retryQueuedTitle, { description: t.retryQueued }),
      onError: (error) => notify.error(episodeTexts.retryFailedTitle, { description: errorMessage(error, episodeTexts.retryFailed) }),
    });
  return (
    <Panel titleId="episode-status-title" title={t.statusTitle}>
      {!processing && <p>{t.webhookProcessing}</p>}
      {processing && (
        <div className="flex flex-col gap-3">
          {/* Announced as it changes: the page asks for news every few seconds while processing. */}
          <p role="status" aria-live="polite" className="font-medium break-words" data-testid="episode-status">
            {processing.status === 'failed' ? t.failedTitle : episodeTexts.processingState(processing)}
          </p>
          {processing.status === 'processing' && (
            <progress
              className="progress progress-primary w-full"
              value={processing.progress}
              max={100}
              aria-label={episodeTexts.processingProgress(episode.title)}
            />
          )}
          {(processing.status === 'processing' || processing.status === 'queued') && (
            <p className="text-sm text-base-content/70">{t.liveUpdates}</p>
          )}
          {processing.status === 'failed' && (
            <div role="alert" className="alert alert-error flex flex-col items-start gap-2 sm:flex-row sm:items-center">
              <p className="break-words">{processing.failureReason ?? t.failedTitle}</p>
              {canRetry(processing) ? (
                <button type="button" className="btn btn-sm" onClick={onRetry} disabled={retry.isPending}>
                  {retry.isPending ? t.retrying : t.retry}
                </button>
              ) : (
                <p className="break-words font-medium">{episodeTexts.permanentFailureAdvice}</p>
              )}
            </div>
          )}
          {processing.driveFolderUrl && (
            <a className="link link-primary self-start" href={processing.driveFolderUrl} target="_blank" rel="noreferrer">
              {t.driveFolder}
            </a>
          )}
        </div>
      )}
    </Panel>
  );
}
