import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.stubEnv('VITE_SUPABASE_URL', 'http://127.0.0.1:54321');
vi.stubEnv('VITE_SUPABASE_ANON_KEY', 'anon');
const constructed = vi.fn();
vi.mock('@supabase/auth-js', () => ({
  AuthClient: class {
    constructor() {
      constructed();
    }
    getSession = async () => ({ data: { session: { access_token: 'refreshed-by-client' } } });
  },
}));

const storageKey = 'sb-127-auth-token';
const pageLoaded = new EventTarget();
function storeSession(session: object | null) {
  const items = new Map(session ? [[storageKey, JSON.stringify(session)]] : []);
  vi.stubGlobal('window', {
    localStorage: { getItem: (key: string) => items.get(key) ?? null },
    addEventListener: pageLoaded.addEventListener.bind(pageLoaded),
  });
}
const inSeconds = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

describe('the access token before the Auth client has loaded', () => {
  beforeEach(() => {
    vi.resetModules();
    constructed.mockClear();
  });

  it('is the stored one while it is not due for a refresh, without loading the client', async () => {
    storeSession({ access_token: 'stored', refresh_token: 'r', expires_at: inSeconds(3600) });
    const { currentAccessToken } = await import('./supabase');
    expect(await currentAccessToken()).toBe('stored');
    expect(constructed).not.toHaveBeenCalled();
  });

  it("is the client's when the stored one is about to expire", async () => {
    storeSession({ access_token: 'stored', refresh_token: 'r', expires_at: inSeconds(30) });
    const { currentAccessToken } = await import('./supabase');
    expect(await currentAccessToken()).toBe('refreshed-by-client');
  });

  it("is the client's once the client exists", async () => {
    storeSession({ access_token: 'stored', refresh_token: 'r', expires_at: inSeconds(3600) });
    const { authClient, currentAccessToken } = await import('./supabase');
    await authClient();
    expect(await currentAccessToken()).toBe('refreshed-by-client');
  });

  it('is none without a stored session', async () => {
    storeSession(null);
    const { currentAccessToken } = await import('./supabase');
    expect(await currentAccessToken()).toBeNull();
    expect(constructed).not.toHaveBeenCalled();
  });
});

describe('loading the Auth client at startup', () => {
  beforeEach(() => {
    vi.resetModules();
    constructed.mockClear();
  });

  it("waits until a moment after the page's load while the stored token serves the first requests", async () => {
    vi.useFakeTimers();
    try {
      storeSession({ access_token: 'stored', refresh_token: 'r', expires_at: inSeconds(3600) });
      const { AUTH_CLIENT_AFTER_LOAD_MS, preloadAuthClient } = await import('./supabase');
      preloadAuthClient();
      await vi.dynamicImportSettled();
      expect(constructed).not.toHaveBeenCalled();
      pageLoaded.dispatchEvent(new Event('load'));
      await vi.advanceTimersByTimeAsync(AUTH_CLIENT_AFTER_LOAD_MS - 1);
      await vi.dynamicImportSettled();
      expect(constructed).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(constructed).toHaveBeenCalledOnce());
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts at once when the stored token is due for a refresh', async () => {
    storeSession({ access_token: 'stored', refresh_token: 'r', expires_at: inSeconds(30) });
    const { preloadAuthClient } = await import('./supabase');
    preloadAuthClient();
    await vi.waitFor(() => expect(constructed).toHaveBeenCalledOnce());
  });
});
