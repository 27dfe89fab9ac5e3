// Every React Query key of the SPA, named by the resource it holds (not by the address it is read
// from). A resource's keys share its first element, so invalidating `episodes.all` also reaches
// its stats and every episode's detail.
export const queryKeys = {
  /** The signed-in user (GET /api/auth/user). */
  account: ['account'] as const,
  episodes: {
    all: ['episodes'] as const,
    /** One episode (the episode page). */
    detail: (id: string) => ['episodes', id] as const,
    /** What the worker made from its words (transcript, show notes, blog post). */
    content: (id: string) => ['episodes', id, 'content'] as const,
    /** Its transcript as the editor reads it (words, sentences, version). */
    transcript: (id: string) => ['episodes', id, 'transcript'] as const,
    /** Counts, limit and gating; not an id, so no episode detail can share it. */
    stats: ['episodes', 'stats'] as const,
  },
  connections: ['connections'] as const,
  /** The profile with its brand assets (GET /api/airtable/user-data, lib/profile-record.ts). */
  profile: ['profile'] as const,
  plans: ['plans'] as const,
  /** The show's podcast feed: its address and state (GET /api/podcast-feed). */
  podcastFeed: ['podcast-feed'] as const,
  /** The signed-in subscriber's plan change waiting for the period's end (their subscription row). */
  scheduledPlanChange: ['scheduled-plan-change'] as const,
  admin: {
    episodeLogs: ['admin', 'episode-logs'] as const,
    objectStorageFiles: ['admin', 'object-storage-files'] as const,
    hostingSetups: ['admin', 'hosting-setups'] as const,
  },
};
