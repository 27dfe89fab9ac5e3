// The dashboard shell's own words (header menu, Quick Actions, the logged-out visit).
export const dashboardTexts = {
  title: 'Dashboard',
  welcome: (name: string | null | undefined) => `Welcome back${name ? `, ${name}` : ''}.`,
  unauthorized: 'Unauthorized',
  menuLabel: 'Account menu',
  manageSubscription: 'Manage Subscription',
  joinCommunity: 'Join Premium Community',
  quickActions: 'Quick Actions',
  manageSubscriptionHint: 'Update billing and plan',
  contactSupport: 'Contact Support',
  contactSupportHint: 'Get help when needed',
  supportCopiedTitle: 'Support email copied',
  supportCopied: (email: string) => `${email} is on your clipboard.`,
  supportAddressTitle: 'Contact Support',
  supportAddress: (email: string) => `Write to us at ${email}`,
  billingDate: 'Your next billing date is shown in the billing portal.',
} as const;
