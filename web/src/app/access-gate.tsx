// Applies the access rules (access.ts) to the current address before any screen renders.
import { useDeferredValue, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { FailureNotice } from '@/components/alert';
import { FullPageSpinner } from '@/components/spinner';
import { useCurrentAccount } from '@/lib/current-account';
import { decideAccess, isOpenToAnyone } from './access';
import { appTexts } from './texts';
import { useCheckoutReturn } from '@/features/billing/hooks/use-checkout-return';

/**
 * The user load failed for another reason than a 401 (a server error, no network): the visitor is
 * neither signed in nor signed out. Nothing behind the gate renders, so no screen mounts and
 * loads again (an errored query refetches for each new observer): one request per press.
 */
function AccountLoadFailed({ onRetry }: { onRetry: () => void }) {
  return <FailureNotice title={appTexts.accountLoadFailedTitle} message={appTexts.accountLoadFailedBody} actionLabel={appTexts.tryAgain} onAction={onRetry} />;
}

export function AccessGate({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data: account, isPending, isError, refetch } = useCurrentAccount();
  // The screen behind the gate (the whole dashboard) first renders in a deferred render, which
  // yields to the browser between components; the signed-in user's arrival alone would render
  // it in one blocking task.
  const deferredPending = useDeferredValue(isPending);
  // Whether a checkout return is signed in is unknown until the user load succeeds.
  const { recovering } = useCheckoutReturn(account, isPending || isError);
  if (isPending || deferredPending) return <FullPageSpinner label={appTexts.loading} />;
  // A screen every visitor sees (a password reset) does not wait for the account.
  if (isError && !isOpenToAnyone(location.pathname)) return <AccountLoadFailed onRetry={() => void refetch()} />;
  if (recovering) return <FullPageSpinner label={appTexts.restoringSession} />;
  const decision = decideAccess(location.pathname, isError ? null : (account ?? null));
  if (decision.kind === 'redirect') {
    return <Navigate to={decision.to} replace />;
  }
  return <>{children}</>;
}
