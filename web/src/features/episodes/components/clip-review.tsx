// Each clip for review: its preview, its words, where it sits in the episode, whether it is
// approved or dropped, its texts and its moment to change, and its posts with their times in the
// podcast's time zone (links to those already out). Edits reach only what has not gone out.
// While the episode is still being made, the clips made so far are there to watch with their
// texts (each is delivered as soon as it is rendered); approving and editing open with the episode.
import type { EpisodeClip } from '@domain/episode-clips';
import { driveFileUrl, drivePreviewUrl, type EpisodeProcessingDetail, type ScheduledPost } from '@domain/episode-page';
import type { EpisodeTranscript } from '@domain/review';
import { lazy, Suspense, useState } from 'react';
import { LabelList, type LabelledValue } from '@/components/label-list';
import { Panel } from '@/components/panel';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useReviewClip } from '../api/review-clip';
import { episodePageTexts, reviewTexts as t } from '../texts';
import { PostRows } from './post-rows';

// The forms load when a clip is edited, not with the page.
const ClipTextsDialog = lazy(() => import('./clip-texts-dialog'));
const ClipMomentDialog = lazy(() => import('./clip-moment-dialog'));

const clock = (seconds: number) => episodePageTexts.duration(seconds);

/** The clip's words: its sentences of the transcript. */
const clipWords = (clip: EpisodeClip, transcript: EpisodeTranscript | undefined) =>
  transcript && clip.firstSentence !== null && clip.endSentence !== null
    ? transcript.sentences.slice(clip.firstSentence, clip.endSentence).map((sentence) => sentence.text).join(' ')
    : null;

const stateBadge = { pending: 'badge-ghost', approved: 'badge-success', dropped: 'badge-error' } as const;

function ReviewButtons({ episodeId, clip }: { episodeId: string; clip: EpisodeClip }) {
  const review = useReviewClip(episodeId);
  const act = (action: 'approve' | 'drop' | 'restore', done: string) =>
    review.mutate(
      { clipId: clip.id, action },
      {
        onSuccess: () => notify.success(done),
        onError: (error) => notify.error(t.clipReviewFailedTitle, { description: errorMessage(error, t.clipReviewFailedTitle) }),
      },
    );
  if (clip.reviewState === 'dropped') {
    return (
      <button type="button" className="btn btn-sm" aria-label={t.restoreClip(clip.title)} onClick={() => act('restore', t.clipRestoredTitle)} disabled={review.isPending}>
        {t.restore}
      </button>
    );
  }
  return (
    <>
      {clip.reviewState === 'pending' && (
        <button type="button" className="btn btn-sm btn-primary" aria-label={t.approveClip(clip.title)} onClick={() => act('approve', t.clipApprovedTitle)} disabled={review.isPending}>
          {t.approve}
        </button>
      )}
      <button type="button" className="btn btn-sm btn-outline" aria-label={t.dropClip(clip.title)} onClick={() => act('drop', t.clipDroppedTitle)} disabled={review.isPending}>
        {t.drop}
      </button>
    </>
  );
}

interface ClipCardProps {
  episodeId: string;
  clip: EpisodeClip;
  /** The episode is delivered: the clip can be approved, dropped and edited. */
  reviewable: boolean;
  posts: ScheduledPost[];
  transcript: EpisodeTranscript | undefined;
  rendering: boolean;
  timeZone: string | null;
}

/** The clip's texts as they stand, to read while the episode is still being made. */
function ClipTexts({ clip }: { clip: EpisodeClip }) {
  const rows: LabelledValue[] = [
    [t.youtubeTitle, clip.posts.youtube.title],
    [t.xText, clip.posts.x.text],
    [t.linkedinText, clip.posts.linkedin.text],
  ];
  return <LabelList rows={rows} className="text-sm" />;
}

function ClipCard({ episodeId, clip, reviewable, posts, transcript, rendering, timeZone }: ClipCardProps) {
  const [open, setOpen] = useState<'texts' | 'moment' | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const words = clipWords(clip, transcript);
  const driveUrl = clip.driveFileId ? driveFileUrl(clip.driveFileId, clip.driveUrl) : null;
  const headingId = `clip-${clip.id}-title`;
  return (
    <li className="flex flex-col gap-2 py-4" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-lg font-semibold break-words">
          {t.clipHeading(clip.position, clip.title)}
        </h3>
        <span className={`badge ${stateBadge[clip.reviewState]}`}>{t.clipState[clip.reviewState]}</span>
      </div>
      <p className="text-sm text-base-content/70">{t.clipMoment(clock(clip.startSeconds), clock(clip.endSeconds))}</p>
      {clip.reason && <p className="text-sm break-words">{t.clipReason(clip.reason, clip.score)}</p>}
      {rendering && (
        <p role="status" className="text-sm">
          <span className="loading loading-spinner loading-xs mr-2" aria-hidden="true" />
          {t.clipRendering}
        </p>
      )}
      {reviewable ? (
        <div className="flex flex-col gap-1">
          <h4 className="text-sm font-semibold">{t.clipWords}</h4>
          <p className="break-words">{words ?? t.noWords}</p>
        </div>
      ) : (
        <ClipTexts clip={clip} />
      )}
      <div className="flex flex-wrap gap-2">
        {reviewable && <ReviewButtons episodeId={episodeId} clip={clip} />}
        {reviewable && (
          <button type="button" className="btn btn-sm" aria-label={t.editTexts(clip.title)} onClick={() => setOpen('texts')}>
            {t.editTextsTitle}
          </button>
        )}
        {reviewable && transcript && clip.firstSentence !== null && (
          <button type="button" className="btn btn-sm" aria-label={t.moveClip(clip.title)} onClick={() => setOpen('moment')}>
            {t.moveTitle}
          </button>
        )}
        {driveUrl && (
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            aria-expanded={previewing}
            aria-label={previewing ? t.hideClip(clip.title) : t.watchClip(clip.title)}
            onClick={() => setPreviewing((on) => !on)}
          >
            {previewing ? t.hideShort : t.watchShort}
          </button>
        )}
      </div>
      {previewing && driveUrl && (
        <iframe
          src={drivePreviewUrl(driveUrl)}
          title={t.clipFrame(clip.title)}
          className={`w-full rounded-box border border-base-300 ${clip.height > clip.width ? 'aspect-[9/16] max-w-xs' : 'aspect-video max-w-2xl'}`}
          allow="autoplay; fullscreen"
          loading="lazy"
        />
      )}
      {posts.length > 0 && <PostRows episodeId={episodeId} label={clip.title} posts={posts} timeZone={timeZone} />}
      <Suspense fallback={null}>
        {open === 'texts' && <ClipTextsDialog episodeId={episodeId} clip={clip} posts={posts} onClose={() => setOpen(null)} />}
        {open === 'moment' && transcript && (
          <ClipMomentDialog episodeId={episodeId} clip={clip} transcript={transcript} onClose={() => setOpen(null)} />
        )}
      </Suspense>
    </li>
  );
}

export function ClipReview({ episodeId, processing, transcript }: { episodeId: string; processing: EpisodeProcessingDetail; transcript: EpisodeTranscript | undefined }) {
  const rendering = new Set(processing.review.edits.renderingClipIds);
  const reviewable = processing.status === 'delivered';
  return (
    <Panel titleId="clips-title" title={t.clipsTitle}>
      {!reviewable && <p>{processing.status === 'failed' ? t.clipsOfFailedEpisode : t.clipsWhileProcessing}</p>}
      {processing.clips.length === 0 ? (
        <p>{t.noClips}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-base-300">
          {processing.clips.map((clip) => (
            <ClipCard
              key={clip.id}
              episodeId={episodeId}
              clip={clip}
              reviewable={reviewable}
              posts={processing.posts.filter((post) => post.clipId === clip.id)}
              transcript={transcript}
              rendering={rendering.has(clip.id)}
              timeZone={processing.review.timeZone}
            />
          ))}
        </ul>
      )}
    </Panel>
  );
}
