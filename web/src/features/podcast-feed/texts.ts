// The dashboard's podcast feed panel (issue 44): the feed's address, its state against Apple's
// requirements, and how to submit it to Apple Podcasts and Spotify.
export const podcastFeedTexts = {
  title: 'Your Podcast Feed',
  intro: 'Your show is hosted here: every delivered episode goes into this feed, with its transcript and chapters.',
  building: 'Your podcast feed is being set up. This takes a few seconds.',
  valid: "Your feed meets Apple Podcasts' requirements.",
  invalid: 'Apple Podcasts would refuse your feed:',
  fixHint: 'Fix these in your profile: the feed updates by itself within a minute.',
  addressLabel: 'Podcast feed address',
  copy: 'Copy',
  copiedTitle: 'Feed address copied',
  copied: 'Paste it into Apple Podcasts Connect or Spotify for Creators.',
  copyFailedTitle: 'Copy the address by hand',
  copyFailed: 'Select the address and copy it: this browser did not let the page copy it.',
  episodes: (count: number) => (count === 1 ? '1 episode in your feed.' : `${count} episodes in your feed.`),
  appleTitle: 'Submit to Apple Podcasts',
  appleSteps: [
    'Sign in to Apple Podcasts Connect (podcastsconnect.apple.com) with your Apple Account.',
    'Choose the + button, then New Show, then "Add a show with an RSS feed".',
    'Paste your feed address and choose Add. Apple checks the feed and reviews the show, usually within a few days.',
  ],
  spotifyTitle: 'Submit to Spotify',
  spotifySteps: [
    'Sign in to Spotify for Creators (creators.spotify.com) and choose to add an existing show from its RSS feed.',
    'Paste your feed address.',
    'Spotify sends a code to the e-mail address in your feed; enter it to confirm the show is yours.',
  ],
  ownerEmail: (email: string) => `The e-mail address in your feed is ${email} (your account's).`,
  loadFailed: 'Could not load your podcast feed.',
} as const;
