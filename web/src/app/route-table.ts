// Every route of the SPA in one table: its address, its title and who may see it. The router
// and the access rules (access.ts) both read it.
import { ADMIN_CONSOLE_PATH, type HomeDestination } from '@domain/account';
import { ADMIN_HOSTING_PATH } from '@domain/admin-hosting';
import { matchPath } from 'react-router-dom';
import { lazyPage, type LazyPage } from './lazy-page';

/**
 * - `anyone`: rendered for every visitor (the admin console enforces access on the server).
 * - `guest`: the sign-in screens; a signed-in visitor is sent home.
 * - `member`: signed-in visitors only; with `home`, only when that is where the account belongs;
 *   with `signedOutNotice`, a signed-out visitor sees the page just long enough to be told
 *   'Unauthorized' and sent to / (the dashboard, spec section 2).
 */
type RouteAccess = { kind: 'anyone' } | { kind: 'guest' } | { kind: 'member'; home?: HomeDestination; signedOutNotice?: boolean };

interface AppRoute {
  path: string;
  title: string;
  access: RouteAccess;
  page: LazyPage;
}

const anyone: RouteAccess = { kind: 'anyone' };
const guest: RouteAccess = { kind: 'guest' };
const member = (home?: HomeDestination, signedOutNotice = false): RouteAccess => ({ kind: 'member', home, signedOutNotice });

// Each screen is a lazy chunk, so the first load stays small.
export const dashboardPage = lazyPage(() => import('./routes/dashboard/dashboard-page'));

export const notFoundRoute = { title: '404 Page Not Found', page: lazyPage(() => import('./routes/not-found-page')) };

export const routeTable: readonly AppRoute[] = [
  { path: '/register', title: 'Create Account', access: guest, page: lazyPage(() => import('./routes/auth/register-page')) },
  { path: '/login', title: 'Sign In', access: guest, page: lazyPage(() => import('./routes/auth/login-page')) },
  { path: '/forgot-password', title: 'Forgot Password', access: guest, page: lazyPage(() => import('./routes/auth/forgot-password-page')) },
  { path: '/reset-password', title: 'Reset Password', access: anyone, page: lazyPage(() => import('./routes/auth/reset-password-page')) },
  { path: '/', title: 'Dashboard', access: member('/dashboard'), page: dashboardPage },
  { path: '/dashboard', title: 'Dashboard', access: member('/dashboard', true), page: dashboardPage },
  { path: '/subscribe', title: 'Choose Your Plan', access: member(), page: lazyPage(() => import('./routes/billing/subscribe-page')) },
  { path: '/onboarding', title: 'Onboarding', access: member('/onboarding'), page: lazyPage(() => import('./routes/onboarding/onboarding-page')) },
  { path: '/episodes', title: 'Your Episodes', access: member(), page: lazyPage(() => import('./routes/episodes/episode-list-page')) },
  { path: '/episodes/:id', title: 'Episode', access: member(), page: lazyPage(() => import('./routes/episodes/episode-page')) },
  { path: '/done', title: 'Thanks for Submitting!', access: member(), page: lazyPage(() => import('./routes/episodes/done-page')) },
  // An e-mail's unsubscribe link: its signed token is the authority, signed in or not.
  { path: '/unsubscribe', title: 'Unsubscribe', access: anyone, page: lazyPage(() => import('./routes/email/unsubscribe-page')) },
  { path: ADMIN_CONSOLE_PATH, title: 'Episode Resubmission Admin', access: anyone, page: lazyPage(() => import('./routes/admin/resubmit-page')) },
  { path: ADMIN_HOSTING_PATH, title: 'Hosting Setup', access: anyone, page: lazyPage(() => import('./routes/admin/hosting-page')) },
];

/** The route for an address (`:name` matches one segment), ignoring a trailing slash; undefined for an unknown address. */
export function findRoute(pathname: string): AppRoute | undefined {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return routeTable.find((route) => matchPath({ path: route.path, caseSensitive: true, end: true }, normalized));
}

/**
 * Starts fetching the chunk of the screen at `pathname` at once, while the access rules still
 * wait for the signed-in user: the chunk no longer waits for that request to finish.
 */
export function preloadPage(pathname: string): void {
  (findRoute(pathname)?.page ?? notFoundRoute.page).load().catch(() => {
    // Rendering the screen loads it again and shows the failure.
  });
}

/** The browser tab's title for an address. */
export function documentTitle(pathname: string): string {
  return `${findRoute(pathname)?.title ?? notFoundRoute.title} · Castloop`;
}
