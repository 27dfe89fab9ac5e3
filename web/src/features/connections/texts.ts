// Every user-facing text of the Social Media Connections panel. Quoted spec texts are verbatim.
export const texts = {
  title: 'Social Media Connections',
  intro: 'Connect your accounts so Castloop can save files to your cloud drive and post for you.',
  loading: 'Loading connections...',
  loadFailed: 'Connections could not be loaded.',
  noneConnected: 'No platforms connected yet',
  someNeedAttention: (working: number, total: number, attention: number) => `${working}/${total} working, ${attention} need attention`,
  allWorking: (total: number) => `All ${total} connected platforms are working`,
  tokensNote: 'Tokens are synced after each connection and refreshed daily.',
  comingSoonNote: 'Social media connections are temporarily unavailable while we prepare exciting new features for you.',

  badge: { connected: 'Connected', expired: 'Expired', failed: 'Failed' },
  connect: 'Connect',
  disconnect: 'Disconnect',
  refresh: 'Refresh',
  fix: 'Fix',
  comingSoon: 'Coming Soon!',
  actionFor: (action: string, provider: string) => `${action} ${provider}`,

  connectTitle: (provider: string) => `Connect ${provider}`,
  redirectNotice: (provider: string) => `You'll be redirected to ${provider} to authorize access`,
  cancel: 'Cancel',
  connecting: 'Connecting...',
  connectionFailed: 'Connection Failed',
  connectionFailedBody: (provider: string) => `Could not connect ${provider}. Please try again.`,
  connected: (provider: string) => `${provider} Connected`,
  connectedBody: (provider: string) => `${provider} connection established successfully`,

  confirmDisconnectTitle: (provider: string) => `Disconnect ${provider}?`,
  confirmDisconnect: (provider: string, inProgress: string[] = []) =>
    `Castloop will stop using ${provider} until you connect it again${provider === 'Google Drive' ? ': new episodes cannot be submitted without it' : ''}.` +
    (inProgress.length
      ? ` ${inProgress.length === 1 ? 'This episode is' : 'These episodes are'} being processed and will stop before delivery: ${inProgress.map((title) => `"${title}"`).join(', ')}. Retry ${inProgress.length === 1 ? 'it' : 'them'} after connecting again: the work done is kept.`
      : ''),
  keepConnected: 'Keep connected',
  disconnected: 'Disconnected',
  disconnectedBody: (provider: string) => `${provider} connection removed successfully`,
  disconnectFailed: 'Disconnect Failed',
  disconnectFailedBody: (provider: string, message: string) => `Failed to disconnect ${provider}: ${message}`,

  tokenCheckComplete: 'Token Check Complete',
  tokenCheckBody: (working: number, attention: number) => `${working} tokens working, ${attention} need attention - reconnect required`,
  reconnectionNeeded: 'Reconnection Needed',
  reconnectionNeededBody: (providers: string) => `Please reconnect: ${providers}`,
  tokenRefreshFailed: 'Token Refresh Failed',
  tokenRefreshFailedFallback: 'Failed to refresh tokens',

  wordpressTitle: 'Connect WordPress',
  wordpressIntro: 'Create an application password in your WordPress profile (Users > Profile > Application Passwords) and enter it here.',
  wordpressSite: 'WordPress site',
  wordpressSiteHint: 'Your podcast website has no address yet: enter the address of your WordPress site.',
  wordpressUsername: 'Username',
  wordpressPassword: 'Application password',
  missingInformation: 'Missing Information',
  wordpressConnected: 'WordPress Connected',
  wordpressConnectedBody: 'WordPress connection established successfully',
  wordpressConnectionFailed: 'WordPress Connection Failed',
  wordpressConnectionFailedFallback: 'Failed to connect to WordPress',
  wordpressDisconnected: 'WordPress Disconnected',
  wordpressDisconnectedBody: 'WordPress credentials removed successfully',
  wordpressDisconnectFailed: 'WordPress Disconnect Failed',
  wordpressDisconnectFailedFallback: 'Failed to remove WordPress connection',
} as const;
