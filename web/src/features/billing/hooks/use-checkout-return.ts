// Returning from Stripe's checkout with ?session_id=... (spec section 4).
// - Signed out (a fresh browser): recover the session with the stored pendingUserEmail; the
//   server demands a paid, recent checkout whose e-mail matches, once.
// - Signed out without it: claim the checkout session (it must not stay a login for someone else).
// - Signed in: claim it all the same, then wait briefly for the payment's webhook to activate
//   the subscription.
// Either way session_id is then stripped from the address without a reload. Failures are only
// logged (spec section 8).
import type { Account } from '@domain/account';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { currentAccountQuery } from '@/lib/current-account';
import { wait } from '@/lib/delays';
import { PENDING_USER_EMAIL } from '@/lib/local-storage-keys';
import { queryKeys } from '@/lib/query-keys';
import { claimCheckoutSession } from '../api/claim-checkout-session';
import { recoverSession } from '../api/recover-session';

const ACTIVATION_POLLS = 10;

export function useCheckoutReturn(account: Account | null | undefined, loading: boolean): { recovering: boolean } {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const attempted = useRef(false);
  const sessionId = new URLSearchParams(location.search).get('session_id');
  const [recovering, setRecovering] = useState(Boolean(sessionId));

  useEffect(() => {
    if (loading || attempted.current) return;
    attempted.current = true;
    if (!sessionId) {
      setRecovering(false);
      return;
    }
    // Through the router, so the address and the router agree (no reload).
    const stripSessionId = () => {
      const params = new URLSearchParams(location.search);
      params.delete('session_id');
      const search = params.toString();
      navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
    };
    void (async () => {
      if (!account) {
        const email = localStorage.getItem(PENDING_USER_EMAIL);
        if (!email) {
          // Nothing to recover with: use the id up so it signs no one in later.
          await claimCheckoutSession(sessionId);
          stripSessionId();
        } else if (await recoverSession(email, sessionId)) {
          localStorage.removeItem(PENDING_USER_EMAIL);
          await queryClient.invalidateQueries({ queryKey: queryKeys.account });
          stripSessionId();
        }
      } else {
        localStorage.removeItem(PENDING_USER_EMAIL);
        await claimCheckoutSession(sessionId);
        for (let i = 0; i < ACTIVATION_POLLS; i++) {
          const fresh = await queryClient.fetchQuery({ ...currentAccountQuery, staleTime: 0 });
          if (fresh?.subscriptionStatus === 'active') break;
          await wait(1000);
        }
        stripSessionId();
      }
      setRecovering(false);
    })();
  }, [account, loading, sessionId, queryClient, navigate, location]);

  return { recovering };
}
