// The dashboard's Submit New Episode panel: gating box, the button that opens the dialog
// (loaded, with the upload library, only when first opened) and Recent Episodes.
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useEpisodeStats } from '../api/get-episode-stats';
import { episodeTexts as t } from '../texts';
import { backgroundUploadsAfterReload, type BackgroundUploads, hasInterruptedUploads } from '../upload/remembered';
import { GatingBox } from './gating-box';
import { RecentEpisodes } from './recent-episodes';

const SubmitEpisodeDialog = lazy(() => import('./submit-episode-dialog'));

/** While the dialog is closed: uploads a reload interrupted, going on by themselves or waiting for their file. */
function BackgroundUploadsNotice({ state, onShow }: { state: BackgroundUploads; onShow: () => void }) {
  if (state.resuming.length === 0 && state.waiting.length === 0) return null;
  return (
    <div role="status" className="alert alert-info flex flex-wrap items-center justify-between gap-2" data-testid="background-uploads">
      <div className="flex min-w-0 flex-col gap-1">
        {state.resuming.length > 0 && <p className="break-words">{t.resumingNotice(state.resuming)}</p>}
        {state.waiting.length > 0 && <p className="break-words">{t.waitingNotice(state.waiting)}</p>}
      </div>
      <button type="button" className="btn btn-sm" onClick={onShow}>
        {t.showUploads}
      </button>
    </div>
  );
}

/** `upgradeAction`: what the monthly limit message offers (the app passes billing's upgrade button). */
export function SubmitEpisodePanel({ userId, upgradeAction }: { userId: string; upgradeAction?: ReactNode }) {
  const stats = useEpisodeStats();
  const [open, setOpen] = useState(false);
  // Once opened the dialog stays mounted, so uploads keep their progress while it is closed;
  // uploads a reload interrupted mount it at once (closed), so they go on by themselves.
  const [mounted, setMounted] = useState(() => hasInterruptedUploads(userId));
  const [background, setBackground] = useState(() => backgroundUploadsAfterReload(userId));
  const show = () => {
    setMounted(true);
    setOpen(true);
  };
  return (
    <section aria-labelledby="submit-episode-title" className="card bg-base-100 shadow">
      <div className="card-body gap-4">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <h2 id="submit-episode-title" className="card-title">
              {t.panelTitle}
            </h2>
            <p className="text-sm text-base-content/70">{t.panelIntro}</p>
          </div>
          <button type="button" className="btn btn-primary" onClick={show} disabled={!stats.data}>
            {t.openDialog}
          </button>
        </div>
        {!open && <BackgroundUploadsNotice state={background} onShow={show} />}
        {stats.data && <GatingBox stats={stats.data} upgradeAction={upgradeAction} />}
        <RecentEpisodes />
      </div>
      {mounted && stats.data && (
        <Suspense fallback={null}>
          <SubmitEpisodeDialog
            userId={userId}
            stats={stats.data}
            open={open}
            onClose={() => setOpen(false)}
            upgradeAction={upgradeAction}
            onBackgroundUploads={setBackground}
          />
        </Suspense>
      )}
    </section>
  );
}
