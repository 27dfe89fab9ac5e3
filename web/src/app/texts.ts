export const appTexts = {
  productName: 'Castloop',
  version: 'v1.0',
  logout: 'Logout',
  adminConsole: 'Admin',
  loading: 'Loading...',
  restoringSession: 'Restoring your session...',
  notFoundTitle: '404 Page Not Found',
  notFoundBody: 'Taking you back to the start...',
  notificationsLabel: 'Notifications (F8)',
} as const;
