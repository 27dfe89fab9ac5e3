import type { Account } from '@domain/account';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { hasStoredSession } from '@/lib/supabase';
import { testAccount } from '@/testing/account';
import { preloadScreenData } from './preload-data';

vi.mock('@/lib/supabase', () => ({ hasStoredSession: vi.fn(), currentAccessToken: vi.fn(async () => 'token') }));

// Each dashboard read, its answer and the key it is cached under.
const stats = {
  thisMonth: 0,
  total: 0,
  currentCount: 0,
  limit: 4,
  subscriptionTier: 'growth',
  canSubmit: true,
  blockReason: null,
  hostingSetup: true,
  hostingSetupStartedAt: null,
  onboardingCompleted: true,
  socialConnected: true,
};
const dashboardReads = [
  { path: '/api/episodes/stats', answer: stats, key: queryKeys.episodes.stats },
  { path: '/api/episodes', answer: [], key: queryKeys.episodes.all },
  { path: '/api/oauth-connections', answer: [], key: queryKeys.connections },
  { path: '/api/airtable/user-data', answer: null, key: queryKeys.profile },
  { path: '/api/podcast-feed', answer: { feed: null }, key: queryKeys.podcastFeed },
];
const dashboardPaths = dashboardReads.map((read) => read.path);
const account = (changes: Partial<Account> = {}): Account => testAccount({ lastName: null, ...changes });

/** An episode as GET /api/episodes/:id answers it, with its processing in `status`. */
const episode = (status: 'processing' | 'delivered') => ({
  id: 'e1',
  title: 'Pilot',
  titleConfirmed: true,
  guests: [],
  submittedAt: null,
  processing: {
    status,
    stage: null,
    progress: 0,
    failureReason: null,
    updatedAt: '2026-11-26T12:00:00Z',
    startedAt: null,
    finishedAt: null,
    driveFolderUrl: null,
    outputs: [],
    clips: [],
    posts: [],
    review: {
      hold: null, dueAt: null, releasedAt: null, transcriptVersion: 1, transcriptConfidence: 0.9, timeZone: null, postingHour: 10,
      postAutomatically: true, edits: { renderingClipIds: [], writingTexts: false, failure: null },
    },
  },
});
const transcript = { engine: 'pocketsphinx', language: 'en-US', durationSeconds: 1, words: [], sentences: [], version: 1, confidence: 0.9, editedAt: null };
const content = { episodeId: 'e1', status: 'delivered', driveFolderUrl: null, content: null };

/** A server whose signed-in user request answers only when `answerUser` is called. */
function server(user: Account | null, episodeStatus: 'processing' | 'delivered' = 'delivered') {
  const requested: string[] = [];
  let answerUser = () => {};
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string) => {
      requested.push(path);
      if (path.startsWith('/api/admin/')) return Promise.resolve(Response.json({ items: [], nextCursor: null }));
      if (path === '/api/episodes/e1') return Promise.resolve(Response.json(episode(episodeStatus)));
      if (path === '/api/episodes/e1/content') return Promise.resolve(Response.json(content));
      if (path === '/api/episodes/e1/transcript') return Promise.resolve(Response.json(transcript));
      if (path !== '/api/auth/user')
        return Promise.resolve(Response.json(dashboardReads.find((read) => read.path === path)?.answer));
      return new Promise<Response>((resolve) => {
        answerUser = () =>
          resolve(user ? Response.json(user) : new Response('{"message":"Unauthorized"}', { status: 401 }));
      });
    }),
  );
  return { requested, answerUser: () => answerUser() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("a screen's data at startup", () => {
  beforeEach(() => vi.mocked(hasStoredSession).mockReturnValue(true));
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the dashboard data beside the signed-in user, and keeps it when the dashboard is shown', async () => {
    const { requested, answerUser } = server(account());
    const queryClient = createQueryClient();
    preloadScreenData(queryClient, '/dashboard');
    await settle();
    expect(requested.sort()).toEqual(['/api/auth/user', ...dashboardPaths].sort());
    answerUser();
    await settle();
    expect(queryClient.getQueryData(queryKeys.account)).toEqual(account());
    for (const { key, answer } of dashboardReads) expect(queryClient.getQueryData(key)).toEqual(answer);
  });

  it.each([
    ['a stale session (signed out)', null],
    ['an account whose home is onboarding', account({ onboardingCompleted: false })],
  ])('keeps none of it for %s', async (_case, user) => {
    const { answerUser } = server(user);
    const queryClient = createQueryClient();
    preloadScreenData(queryClient, '/');
    await settle();
    answerUser();
    await settle();
    for (const { key } of dashboardReads)
      expect(queryClient.getQueryCache().find({ queryKey: key, exact: true })).toBeUndefined();
  });

  it("asks for an episode page's episode beside the signed-in user, then its content and transcript once it is delivered", async () => {
    const { requested, answerUser } = server(account());
    const queryClient = createQueryClient();
    preloadScreenData(queryClient, '/episodes/e1');
    await settle();
    expect(requested.sort()).toEqual(['/api/auth/user', '/api/episodes/e1', '/api/episodes/e1/content', '/api/episodes/e1/transcript']);
    answerUser();
    await settle();
    expect(queryClient.getQueryData(queryKeys.episodes.detail('e1'))).toEqual(episode('delivered'));
    expect(queryClient.getQueryData(queryKeys.episodes.content('e1'))).toEqual(content);
    expect(queryClient.getQueryData(queryKeys.episodes.transcript('e1'))).toEqual(transcript);
  });

  it("does not ask for the content of an episode still processing (it would stay cached as 'none')", async () => {
    const { requested, answerUser } = server(account(), 'processing');
    preloadScreenData(createQueryClient(), '/episodes/e1');
    answerUser();
    await settle();
    expect(requested.sort()).toEqual(['/api/auth/user', '/api/episodes/e1']);
  });

  it('keeps no episode for a stale session', async () => {
    const { answerUser } = server(null);
    const queryClient = createQueryClient();
    preloadScreenData(queryClient, '/episodes/e1');
    await settle();
    answerUser();
    await settle();
    expect(
      queryClient.getQueryCache().find({ queryKey: queryKeys.episodes.detail('e1'), exact: true }),
    ).toBeUndefined();
    expect(
      queryClient.getQueryCache().find({ queryKey: queryKeys.episodes.content('e1'), exact: true }),
    ).toBeUndefined();
  });

  it.each([
    ['/onboarding', account({ onboardingCompleted: false }), ['/api/airtable/user-data'], [queryKeys.profile]],
    [
      '/admin/episodes/resubmit',
      account({ isAdmin: true, subscriptionStatus: null, subscriptionTier: null }),
      ['/api/admin/episode-logs', '/api/admin/object-storage/files'],
      [queryKeys.admin.episodeLogs, queryKeys.admin.objectStorageFiles],
    ],
  ])('asks for the first data of %s beside the signed-in user', async (path, user, paths, keys) => {
    const { requested, answerUser } = server(user);
    const queryClient = createQueryClient();
    preloadScreenData(queryClient, path);
    await settle();
    expect(requested.sort()).toEqual(['/api/auth/user', ...paths].sort());
    answerUser();
    await settle();
    for (const key of keys) expect(queryClient.getQueryData(key)).toBeDefined();
  });

  it('asks only for the signed-in user without a stored session or on a screen without first reads', async () => {
    const { requested } = server(null);
    vi.mocked(hasStoredSession).mockReturnValue(false);
    preloadScreenData(createQueryClient(), '/dashboard');
    vi.mocked(hasStoredSession).mockReturnValue(true);
    preloadScreenData(createQueryClient(), '/episodes');
    await settle();
    expect(requested).toEqual(['/api/auth/user', '/api/auth/user']);
  });
});
