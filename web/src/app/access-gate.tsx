// Applies the access rules (access.ts) to the current address before any screen renders.
import { useDeferredValue, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { FullPageSpinner } from '@/components/spinner';
import { useCurrentAccount } from '@/lib/current-account';
import { decideAccess } from './access';
import { appTexts } from './texts';
import { useCheckoutReturn } from '@/features/billing/hooks/use-checkout-return';

export function AccessGate({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data: account, isPending, isError } = useCurrentAccount();
  // The screen behind the gate (the whole dashboard) first renders in a deferred render, which
  // yields to the browser between components; the signed-in user's arrival alone would render
  // it in one blocking task.
  const deferredPending = useDeferredValue(isPending);
  const { recovering } = useCheckoutReturn(account, isPending);
  if (isPending || deferredPending) return <FullPageSpinner label={appTexts.loading} />;
  if (recovering) return <FullPageSpinner label={appTexts.restoringSession} />;
  // A failed user load other than 401 leaves the visitor signed out rather than on a blank page.
  const decision = decideAccess(location.pathname, isError ? null : (account ?? null));
  if (decision.kind === 'redirect') {
    return <Navigate to={decision.to} replace />;
  }
  return <>{children}</>;
}
