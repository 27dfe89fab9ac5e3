export const appTexts = {
  productName: 'Castloop',
  version: 'v1.0',
  logout: 'Logout',
  adminConsole: 'Admin',
  loading: 'Loading...',
  restoringSession: 'Restoring your session...',
  accountLoadFailedTitle: 'We could not load your account',
  accountLoadFailedBody: 'The server did not answer. Check your connection, then try again.',
  tryAgain: 'Try again',
  notFoundTitle: '404 Page Not Found',
  notFoundBody: 'Taking you back to the start...',
  notificationsLabel: 'Notifications (F8)',
} as const;
