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
import { apiRequest } from '@/lib/api-client';
import { currentAccountKey, currentAccountQuery } from '@/lib/current-account';
import { wait } from '@/lib/delays';
import { PENDING_USER_EMAIL } from '@/lib/local-storage-keys';
import { authClient } from '@/lib/supabase';

interface RecoveredSession {
  user: Account;
  session: { access_token: string; refresh_token: string };
}

const ACTIVATION_POLLS = 10;

const RECOVER_SESSION_PATH = '/api/auth/recover-session';

/** Uses up the checkout session without a new session (signed in, the request carries the token). */
async function claimCheckoutSession(sessionId: string): Promise<void> {
  try {
    await apiRequest<void>('POST', RECOVER_SESSION_PATH, { session_id: sessionId });
  } catch (error) {
    console.error('Claiming the checkout session failed', error);
  }
}

/** Asks the server for a session; true on success. */
async function recoverSession(email: string, sessionId: string): Promise<boolean> {
  try {
    const recovered = await apiRequest<RecoveredSession>('POST', RECOVER_SESSION_PATH, { email, session_id: sessionId });
    const { error } = await (await authClient()).setSession(recovered.session);
    if (error) throw error;
    return true;
  } catch (error) {
    console.error('Session recovery failed', error);
    return false;
  }
}

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
          await queryClient.invalidateQueries({ queryKey: currentAccountKey });
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
