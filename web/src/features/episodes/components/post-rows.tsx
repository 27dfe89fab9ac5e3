// The posts of one clip (or of the blog post), platform by platform: when each goes out in the
// podcast's time zone, its state, the platform's answer when it failed, a link once it is out, and
// Postpone, Post now and Cancel for a post still waiting. Folded under one line by default: an
// episode has a clip per few days on up to four platforms.
import { PROVIDERS } from '@domain/connection-status';
import { isPostGoingOut, postAddress, type ScheduledPost } from '@domain/episode-page';
import { formatInZone } from '@domain/review';
import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useCancelPost } from '../api/cancel-post';
import { usePostNow } from '../api/post-now';
import { episodePageTexts as p, reviewTexts as t } from '../texts';

// The form (react-hook-form) loads when a post is postponed, not with the page.
const PostponeDialog = lazy(() => import('./postpone-dialog'));

const platformName = (post: ScheduledPost) => PROVIDERS.find((provider) => provider.id === post.provider)?.label ?? post.provider;

const statusStyles: Record<ScheduledPost['status'], string> = {
  held: 'badge-warning',
  scheduled: 'badge-info',
  posted: 'badge-success',
  failed: 'badge-error',
  canceled: 'badge-ghost',
};
/** A post due now (Post now, or its time came) says it is going out, not that it waits. */
function statusWords(post: ScheduledPost): string {
  if (post.status === 'held') return t.heldStatus;
  if (isPostGoingOut(post)) return t.goingOut;
  return p.postStatus[post.status];
}

function PostActions({ episodeId, label, post, onOpen }: { episodeId: string; label: string; post: ScheduledPost; onOpen: (kind: 'postpone' | 'cancel') => void }) {
  const postNow = usePostNow(episodeId);
  const platform = platformName(post);
  const onPostNow = () =>
    postNow.mutate(post.id, {
      onSuccess: () => notify.success(p.postNowDoneTitle, { description: p.postNowDone }),
      onError: (error) => notify.error(p.postNowFailedTitle, { description: errorMessage(error, p.postNowFailedTitle) }),
    });
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className="btn btn-xs" aria-label={p.postponeLabel(label, platform)} onClick={() => onOpen('postpone')}>
        {p.postpone}
      </button>
      {post.status === 'scheduled' && (
        <button type="button" className="btn btn-xs" aria-label={p.postNowLabel(label, platform)} onClick={onPostNow} disabled={postNow.isPending}>
          {p.postNow}
        </button>
      )}
      <button type="button" className="btn btn-xs btn-outline" aria-label={p.cancelLabel(label, platform)} onClick={() => onOpen('cancel')}>
        {p.cancel}
      </button>
    </div>
  );
}

function CancelDialog({ episodeId, label, post, onClose }: { episodeId: string; label: string; post: ScheduledPost; onClose: () => void }) {
  const cancel = useCancelPost(episodeId);
  const confirm = () =>
    cancel.mutate(post.id, {
      onSuccess: () => {
        notify.success(p.canceledTitle);
        onClose();
      },
      onError: (error) => notify.error(p.cancelFailedTitle, { description: errorMessage(error, p.cancelFailedTitle) }),
    });
  return (
    <ConfirmDialog
      open
      title={p.cancelTitle}
      message={p.cancelConfirm(label, platformName(post))}
      confirmLabel={p.confirmCancel}
      cancelLabel={p.keepPost}
      onConfirm={confirm}
      onClose={onClose}
      pending={cancel.isPending}
    />
  );
}

/** The line a folded list shows: how many platforms, the first time still to come (or the last), the states. */
function summaryOf(posts: ScheduledPost[], timeZone: string | null): string {
  const waiting = posts.filter((post) => post.status === 'scheduled').map((post) => post.scheduledFor).sort();
  const states = [...new Set(posts.map(statusWords))].join(', ');
  const when = waiting[0] ? ` · ${formatInZone(waiting[0], timeZone)}` : '';
  return `${t.platformsSummary(posts.length)}${when} · ${states}`;
}

export function PostRows({ episodeId, label, posts, timeZone, link }: { episodeId: string; label: string; posts: ScheduledPost[]; timeZone: string | null; link?: string | null }) {
  const [open, setOpen] = useState<{ kind: 'postpone' | 'cancel'; post: ScheduledPost } | null>(null);
  return (
    <details className="rounded-box border border-base-300 px-3 py-2">
      <summary className="cursor-pointer text-sm" aria-label={t.showPosts(label)}>
        {summaryOf(posts, timeZone)}
      </summary>
      <ul className="mt-2 flex flex-col gap-2">
        {posts.map((post) => {
          const when = post.postedAt ?? post.scheduledFor;
          const address = post.status === 'posted' ? (link ?? postAddress(post.provider, post.externalId)) : null;
          return (
            <li key={post.id} className="flex flex-col gap-1 md:flex-row md:items-center md:justify-between">
              <span className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium">{platformName(post)}</span>
                {post.status !== 'held' && <time dateTime={when}>{formatInZone(when, timeZone)}</time>}
                <span className={`badge badge-sm ${statusStyles[post.status]}`}>{statusWords(post)}</span>
                {address && (
                  <a className="link" href={address} target="_blank" rel="noreferrer">
                    {t.openPost(platformName(post))}
                  </a>
                )}
              </span>
              {post.status === 'scheduled' && !post.changeable && <span className="text-sm text-base-content/70">{p.heldByWorker}</span>}
              {post.lastError && post.status !== 'posted' && <span className="text-sm break-words text-red-700">{post.lastError}</span>}
              {post.changeable && (
                <PostActions episodeId={episodeId} label={label} post={post} onOpen={(kind) => setOpen({ kind, post })} />
              )}
            </li>
          );
        })}
      </ul>
      {open?.kind === 'postpone' && (
        <Suspense fallback={null}>
          <PostponeDialog episodeId={episodeId} post={open.post} clip={label} platform={platformName(open.post)} onClose={() => setOpen(null)} />
        </Suspense>
      )}
      {open?.kind === 'cancel' && <CancelDialog episodeId={episodeId} label={label} post={open.post} onClose={() => setOpen(null)} />}
    </details>
  );
}
