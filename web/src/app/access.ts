// Which screen a visitor may see (spec sections 2, 4 and 6): a pure decision over the route
// table, unit-tested for every combination of signed in, subscription and onboarding state.
import { homeDestination, type Account } from '@domain/account';
import { findRoute } from './route-table';

type AccessDecision = { kind: 'render' } | { kind: 'redirect'; to: string };

const render: AccessDecision = { kind: 'render' };
const redirect = (to: string): AccessDecision => ({ kind: 'redirect', to });

export function decideAccess(
  path: string,
  account: (Pick<Account, 'subscriptionStatus' | 'onboardingCompleted'> & Partial<Pick<Account, 'isAdmin'>>) | null,
): AccessDecision {
  const access = findRoute(path)?.access;
  if (access?.kind === 'anyone') return render;
  if (!account) return access?.kind === 'guest' || (access?.kind === 'member' && access.signedOutNotice) ? render : redirect('/login');
  // Signed-in users have no use for the sign-in screens: send them home (decisions.md).
  if (access?.kind === 'guest') return redirect('/');
  if (access?.kind === 'member' && access.home) {
    const home = homeDestination(account);
    return home === access.home ? render : redirect(home);
  }
  // Other member screens, and unknown paths (the not-found page).
  return render;
}

/** Whether the screen at `path` renders whoever visits (so it needs no answer about the account). */
export function isOpenToAnyone(path: string): boolean {
  return findRoute(path)?.access.kind === 'anyone';
}
