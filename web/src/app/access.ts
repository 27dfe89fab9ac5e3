// Which screen a visitor may see (spec sections 2, 4 and 6): a pure decision, unit-tested for
// every combination of signed in, subscription and onboarding state.
import { homeDestination, type Account } from '@domain/account';

export type AccessDecision = { kind: 'render' } | { kind: 'redirect'; to: string };

const render: AccessDecision = { kind: 'render' };
const redirect = (to: string): AccessDecision => ({ kind: 'redirect', to });

/** Available to logged-out visitors. */
export const publicPaths = ['/register', '/login', '/forgot-password', '/reset-password'] as const;
/** Access is enforced by the server, whoever visits. */
export const openPaths = ['/admin/episodes/resubmit'] as const;
/** Shown to logged-out visitors only to say 'Unauthorized' and send them to / (spec section 2). */
export const unauthorizedNoticePaths = ['/dashboard'] as const;
/** Known to logged-in users; anything else is the not-found page. */
export const memberPaths = ['/', '/subscribe', '/onboarding', '/dashboard', '/done'] as const;

const isOneOf = (list: readonly string[], path: string) => list.includes(path);

export function decideAccess(path: string, account: Pick<Account, 'subscriptionStatus' | 'onboardingCompleted'> | null): AccessDecision {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (isOneOf(openPaths, normalized)) return render;
  if (!account) return isOneOf(publicPaths, normalized) || isOneOf(unauthorizedNoticePaths, normalized) ? render : redirect('/login');

  const home = homeDestination(account);
  switch (normalized) {
    // Signed-in users have no use for the sign-in screens: send them home (decisions.md).
    case '/login':
    case '/register':
    case '/forgot-password':
      return redirect('/');
    case '/':
      return home === '/dashboard' ? render : redirect(home);
    case '/dashboard':
      return home === '/dashboard' ? render : redirect(home);
    case '/onboarding':
      return home === '/onboarding' ? render : redirect(home);
    default:
      // /subscribe, /done, /reset-password, and unknown paths (the not-found page).
      return render;
  }
}
