// What shows in place of a screen that could not render (the error boundaries in app.tsx and
// router.tsx): for a chunk that failed to load, that the page needs reloading (after a deploy
// the chunks the open page knows are gone); for anything else, that something went wrong. Either
// way a Reload button, never a blank page.
import { FailureNotice } from '@/components/alert';
import { isChunkLoadError, reloadPage } from '@/lib/chunk-load-error';
import { appTexts } from './texts';

export function ScreenError({ error }: { error: unknown }) {
  const chunk = isChunkLoadError(error);
  return (
    <FailureNotice
      title={chunk ? appTexts.screenLoadFailedTitle : appTexts.screenFailedTitle}
      message={chunk ? appTexts.screenLoadFailedBody : appTexts.screenFailedBody}
      actionLabel={appTexts.reload}
      onAction={reloadPage}
    />
  );
}
