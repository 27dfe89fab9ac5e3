// The posting calendar: each clip's platforms and dates, with Postpone (a new date in the
// future, checked here and again in SQL), Cancel (after a confirmation) and Post now for posts
// still waiting. The server decides what may change; a refusal arrives as a toast.
import type { ScheduledPost } from '@domain/episode-page';
import { PROVIDERS } from '@domain/connection-status';
import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Panel } from '@/components/panel';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useCancelPost } from '../api/cancel-post';
import { usePostNow } from '../api/post-now';
import { episodePageTexts as t } from '../texts';

// The form (react-hook-form) loads when a post is postponed, not with the page.
const PostponeDialog = lazy(() => import('./postpone-dialog'));

const platformName = (post: ScheduledPost) => PROVIDERS.find((p) => p.id === post.provider)?.label ?? post.provider;
const clipTitle = (post: ScheduledPost) => post.clipName.replace(/\.mp4$/i, '');
// One formatter for the whole calendar: toLocaleString with options builds one per call.
const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatWhen = (iso: string) => whenFormat.format(new Date(iso));

function CancelDialog({ episodeId, post, onClose }: { episodeId: string; post: ScheduledPost; onClose: () => void }) {
  const cancel = useCancelPost(episodeId);
  const confirm = () =>
    cancel.mutate(post.id, {
      onSuccess: () => {
        notify.success(t.canceledTitle);
        onClose();
      },
      onError: (error) => notify.error(t.cancelFailedTitle, { description: errorMessage(error, t.cancelFailedTitle) }),
    });
  return (
    <ConfirmDialog
      open
      title={t.cancelTitle}
      message={t.cancelConfirm(clipTitle(post), platformName(post))}
      confirmLabel={t.confirmCancel}
      cancelLabel={t.keepPost}
      onConfirm={confirm}
      onClose={onClose}
      pending={cancel.isPending}
    />
  );
}

const statusStyles: Record<ScheduledPost['status'], string> = {
  scheduled: 'badge-info',
  posted: 'badge-success',
  failed: 'badge-error',
  canceled: 'badge-ghost',
};

type Open = { kind: 'postpone' | 'cancel'; post: ScheduledPost } | null;

/** The posts by clip, each clip where its first post falls (the server sends them by date). */
function byClip(posts: ScheduledPost[]): Array<{ clip: string; posts: ScheduledPost[] }> {
  const groups = new Map<string, ScheduledPost[]>();
  for (const post of posts) groups.set(post.clipName, [...(groups.get(post.clipName) ?? []), post]);
  return [...groups.values()].map((clipPosts) => ({ clip: clipTitle(clipPosts[0]), posts: clipPosts }));
}

export function PostingCalendar({ episodeId, posts }: { episodeId: string; posts: ScheduledPost[] }) {
  const [open, setOpen] = useState<Open>(null);
  const postNow = usePostNow(episodeId);
  const onPostNow = (post: ScheduledPost) =>
    postNow.mutate(post.id, {
      onSuccess: () => notify.success(t.postNowDoneTitle, { description: t.postNowDone }),
      onError: (error) =>
        notify.error(t.postNowFailedTitle, { description: errorMessage(error, t.postNowFailedTitle) }),
    });
  return (
    <Panel titleId="posting-calendar-title" title={t.calendarTitle}>
      {posts.length === 0 ? (
        <p>{t.noPosts}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-base-300" aria-label={t.calendarTitle}>
          {byClip(posts).map(({ clip, posts: clipPosts }) => (
            <li key={clip} className="flex flex-col gap-1 py-3">
              <h3 className="font-medium break-words">{clip}</h3>
              <ul className="flex flex-col gap-2">
                {clipPosts.map((post) => {
                  const platform = platformName(post);
                  const when = post.postedAt ?? post.scheduledFor;
                  return (
                    <li key={post.id} className="flex flex-col gap-2 md:flex-row md:items-center md:justify-between">
                      <div className="flex min-w-0 flex-col gap-1">
                        <span className="flex flex-wrap items-center gap-2 text-sm">
                          <span className="font-medium">{platform}</span>
                          <span aria-hidden="true">·</span>
                          <time dateTime={when}>{formatWhen(when)}</time>
                          <span className={`badge badge-sm ${statusStyles[post.status]}`}>
                            {t.postStatus[post.status]}
                          </span>
                        </span>
                        {post.status === 'scheduled' && !post.changeable && (
                          <span className="text-sm text-base-content/70">{t.heldByWorker}</span>
                        )}
                        {post.lastError && post.status !== 'posted' && (
                          <span className="text-sm break-words text-red-700">{post.lastError}</span>
                        )}
                      </div>
                      {post.changeable && (
                        <div className="flex flex-wrap gap-2">
                          <button
                            type="button"
                            className="btn btn-sm"
                            aria-label={t.postponeLabel(clip, platform)}
                            onClick={() => setOpen({ kind: 'postpone', post })}
                          >
                            {t.postpone}
                          </button>
                          <button
                            type="button"
                            className="btn btn-sm"
                            aria-label={t.postNowLabel(clip, platform)}
                            onClick={() => onPostNow(post)}
                            disabled={postNow.isPending}
                          >
                            {t.postNow}
                          </button>
                          <button
                            type="button"
                            className="btn btn-sm btn-outline"
                            aria-label={t.cancelLabel(clip, platform)}
                            onClick={() => setOpen({ kind: 'cancel', post })}
                          >
                            {t.cancel}
                          </button>
                        </div>
                      )}
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {open?.kind === 'postpone' && (
        <Suspense fallback={null}>
          <PostponeDialog
            episodeId={episodeId}
            post={open.post}
            clip={clipTitle(open.post)}
            platform={platformName(open.post)}
            onClose={() => setOpen(null)}
          />
        </Suspense>
      )}
      {open?.kind === 'cancel' && <CancelDialog episodeId={episodeId} post={open.post} onClose={() => setOpen(null)} />}
    </Panel>
  );
}
