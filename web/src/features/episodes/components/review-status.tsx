// Where the episode's review stands, in plain words: waiting for approval (and why), or when
// posting starts by itself, or since when it posts; with the bulk actions for every post not out
// yet (approve and start posting, postpone all, cancel all) and the edits the worker still applies.
import type { EpisodeDetail, EpisodeProcessingDetail } from '@domain/episode-page';
import { formatInZone, postingHourLabel, reviewHoldReasons } from '@domain/review';
import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Panel } from '@/components/panel';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useApproveEpisode } from '../api/approve-episode';
import { useChangeEpisodePosts } from '../api/change-episode-posts';
import { reviewTexts as t } from '../texts';
import { PostRows } from './post-rows';

// Its form loads when asked for, not with the page.
const PostponeAllDialog = lazy(() => import('./postpone-all-dialog'));

function StatusLine({ processing }: { processing: EpisodeProcessingDetail }) {
  const { review } = processing;
  if (review.releasedAt) return <p>{t.released(formatInZone(review.releasedAt, review.timeZone))}</p>;
  if (review.hold) {
    return (
      <div role="alert" className="alert alert-warning flex flex-col items-start gap-1">
        <p className="font-semibold">{t.waiting}</p>
        <p>{reviewHoldReasons[review.hold]}</p>
      </div>
    );
  }
  if (review.dueAt) return <p>{t.dueAt(formatInZone(review.dueAt, review.timeZone))}</p>;
  return null;
}

function BulkActions({ episode, waiting }: { episode: EpisodeDetail; waiting: number }) {
  const [open, setOpen] = useState<'postpone' | 'cancel' | null>(null);
  const approve = useApproveEpisode(episode.id);
  const change = useChangeEpisodePosts(episode.id);
  const released = Boolean(episode.processing?.review.releasedAt);
  const onApprove = () =>
    approve.mutate(undefined, {
      onSuccess: () => notify.success(t.approvedTitle, { description: t.approved }),
      onError: (error) => notify.error(t.approveFailedTitle, { description: errorMessage(error, t.approveFailedTitle) }),
    });
  const onCancelAll = () =>
    change.mutate(
      { action: 'cancel' },
      {
        onSuccess: () => {
          notify.success(t.canceledAllTitle);
          setOpen(null);
        },
        onError: (error) => notify.error(t.cancelAllFailedTitle, { description: errorMessage(error, t.cancelAllFailedTitle) }),
      },
    );
  return (
    <div className="flex flex-wrap gap-2">
      {!released && (
        <button type="button" className="btn btn-primary" onClick={onApprove} disabled={approve.isPending}>
          {approve.isPending ? t.approving : t.approveAll}
        </button>
      )}
      {waiting > 0 && (
        <>
          <button type="button" className="btn" onClick={() => setOpen('postpone')}>
            {t.postponeAll}
          </button>
          <button type="button" className="btn btn-outline" onClick={() => setOpen('cancel')}>
            {t.cancelAll}
          </button>
        </>
      )}
      {open === 'postpone' && (
        <Suspense fallback={null}>
          <PostponeAllDialog episodeId={episode.id} onClose={() => setOpen(null)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={open === 'cancel'}
        title={t.cancelAllTitle}
        message={t.cancelAllConfirm}
        confirmLabel={t.confirmCancelAll}
        cancelLabel={t.keepPosts}
        onConfirm={onCancelAll}
        onClose={() => setOpen(null)}
        pending={change.isPending}
      />
    </div>
  );
}

export function ReviewStatus({ episode, processing }: { episode: EpisodeDetail; processing: EpisodeProcessingDetail }) {
  const { review } = processing;
  const waiting = processing.posts.filter((post) => post.status === 'held' || post.status === 'scheduled').length;
  const fullEpisode = processing.posts.filter((post) => post.kind === 'episode');
  return (
    <Panel titleId="review-title" title={t.title}>
      <StatusLine processing={processing} />
      {review.postAutomatically ? (
        <p className="text-sm text-base-content/70">{t.postingHour(postingHourLabel(review.postingHour), review.timeZone ?? 'UTC')}</p>
      ) : (
        <p className="text-sm text-base-content/70">{t.postingOff}</p>
      )}
      {(review.edits.renderingClipIds.length > 0 || review.edits.writingTexts) && (
        <p role="status" className="text-sm">
          <span className="loading loading-spinner loading-xs mr-2" aria-hidden="true" />
          {t.editsRunning}
        </p>
      )}
      {review.edits.failure && <p className="text-sm break-words text-red-700">{t.editFailed(review.edits.failure)}</p>}
      {fullEpisode.length > 0 && (
        <div className="flex flex-col gap-1">
          <h3 className="font-semibold">{t.fullEpisodeGroup}</h3>
          <PostRows episodeId={episode.id} label={t.fullEpisodeGroup} posts={fullEpisode} timeZone={review.timeZone} />
        </div>
      )}
      <BulkActions episode={episode} waiting={waiting} />
    </Panel>
  );
}
