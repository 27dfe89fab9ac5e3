import { describe, expect, it } from 'vitest';
import {
  connectionDisplayState,
  isProviderAvailable,
  PROVIDERS,
  summarizeConnections,
  type ConnectionFacts,
  type ProviderId,
} from './connection-status.ts';
import { MISSING_WORDPRESS_CREDENTIALS, wordpressCredentialsSchema } from './wordpress-credentials.ts';
import { z } from 'zod/mini';

const now = new Date('2026-11-26T12:00:00.000Z');
const minutes = (n: number) => new Date(now.getTime() + n * 60_000).toISOString();
const days = (n: number) => minutes(n * 24 * 60);

function facts(overrides: Partial<ConnectionFacts> = {}): ConnectionFacts {
  return {
    connected: true,
    status: null,
    hasAccessToken: true,
    hasRefreshToken: true,
    expiresAt: minutes(60),
    createdAt: days(-1),
    updatedAt: minutes(-60),
    ...overrides,
  };
}

describe('the providers', () => {
  it('are the spec\'s eight, in order', () => {
    expect(PROVIDERS.map((p) => p.id)).toEqual(['google', 'youtube', 'facebook', 'instagram', 'tiktok', 'x', 'linkedin', 'wordpress']);
  });
  it('open five to everyone and all to the internal test account', () => {
    const ids = PROVIDERS.map((p) => p.id);
    expect(ids.filter((p) => isProviderAvailable(p, false))).toEqual(['google', 'youtube', 'x', 'linkedin', 'wordpress']);
    expect(ids.filter((p) => isProviderAvailable(p, true))).toEqual(ids);
  });
});

describe('connectionDisplayState', () => {
  const cases: [string, ProviderId, ConnectionFacts | null, string][] = [
    // every provider: nothing stored, or no access token
    ['no connection', 'google', null, 'disconnected'],
    ['no connection (x)', 'x', null, 'disconnected'],
    ['no access token', 'linkedin', facts({ hasAccessToken: false }), 'disconnected'],
    ['flagged not connected', 'google', facts({ connected: false }), 'disconnected'],
    ['no access token (wordpress)', 'wordpress', facts({ hasAccessToken: false }), 'disconnected'],
    // default rule (x, linkedin, tiktok)
    ['future expiry', 'x', facts(), 'connected'],
    ['expiry passed a second ago', 'x', facts({ expiresAt: new Date(now.getTime() - 1000).toISOString() }), 'expired'],
    ['expiry exactly now', 'linkedin', facts({ expiresAt: now.toISOString() }), 'expired'],
    ['expiry a second ahead', 'linkedin', facts({ expiresAt: new Date(now.getTime() + 1000).toISOString() }), 'connected'],
    ['missing expiry', 'tiktok', facts({ expiresAt: null }), 'connected'],
    ['missing refresh token does not matter', 'x', facts({ hasRefreshToken: false }), 'connected'],
    // google and youtube
    ['google fresh', 'google', facts(), 'connected'],
    ['google missing refresh token', 'google', facts({ hasRefreshToken: false }), 'failed'],
    ['youtube missing refresh token beats expiry', 'youtube', facts({ hasRefreshToken: false, expiresAt: minutes(-1) }), 'failed'],
    ['google expired', 'google', facts({ expiresAt: minutes(-1) }), 'expired'],
    ['google missing expiry', 'google', facts({ expiresAt: null }), 'connected'],
    ['google created 30 days ago exactly', 'google', facts({ createdAt: days(-30) }), 'connected'],
    ['google created 30 days and a minute ago', 'google', facts({ createdAt: minutes(-30 * 24 * 60 - 1) }), 'failed'],
    ['google old but updated 9 minutes ago', 'google', facts({ createdAt: days(-40), updatedAt: minutes(-9) }), 'connected'],
    ['google old, updated 10 minutes ago', 'google', facts({ createdAt: days(-40), updatedAt: minutes(-10) }), 'failed'],
    ['youtube old and expired', 'youtube', facts({ createdAt: days(-40), expiresAt: minutes(-5) }), 'expired'],
    // facebook
    ['facebook updated 9 minutes ago though expired', 'facebook', facts({ updatedAt: minutes(-9), expiresAt: minutes(-1) }), 'connected'],
    ['facebook updated 10 minutes ago and expired', 'facebook', facts({ updatedAt: minutes(-10), expiresAt: minutes(-1) }), 'expired'],
    ['facebook no expiry, created 60 days ago', 'facebook', facts({ expiresAt: null, createdAt: days(-60) }), 'connected'],
    ['facebook no expiry, created 60 days and a minute ago', 'facebook', facts({ expiresAt: null, createdAt: minutes(-60 * 24 * 60 - 1) }), 'expired'],
    ['facebook future expiry, old', 'facebook', facts({ createdAt: days(-90) }), 'connected'],
    // instagram
    ['instagram stored failed', 'instagram', facts({ status: 'failed' }), 'failed'],
    ['instagram not connected', 'instagram', facts({ connected: false }), 'failed'],
    ['instagram stored expired', 'instagram', facts({ status: 'expired' }), 'expired'],
    ['instagram token, expiry passed', 'instagram', facts({ expiresAt: minutes(-1) }), 'connected'],
    // wordpress
    ['wordpress with a password', 'wordpress', facts({ hasRefreshToken: false, expiresAt: null, createdAt: days(-400) }), 'connected'],
  ];
  it.each(cases)('%s', (_name, provider, stored, expected) => {
    expect(connectionDisplayState(provider, stored, now)).toBe(expected);
  });
});

describe('summarizeConnections', () => {
  it('counts working and attention among connected platforms only', () => {
    expect(summarizeConnections([])).toEqual({ total: 0, working: 0, needAttention: 0 });
    expect(summarizeConnections(['disconnected', 'disconnected'])).toEqual({ total: 0, working: 0, needAttention: 0 });
    expect(summarizeConnections(['connected', 'expired', 'failed', 'disconnected'])).toEqual({ total: 3, working: 1, needAttention: 2 });
  });
});

describe('wordpressCredentialsSchema', () => {
  it('trims and requires both fields', () => {
    expect(z.safeParse(wordpressCredentialsSchema, { username: '  ada ', password: ' abcd efgh ' }).data).toEqual({ username: 'ada', password: 'abcd efgh' });
    const blank = z.safeParse(wordpressCredentialsSchema, { username: '   ', password: 'x' });
    expect(blank.error?.issues[0]?.message).toBe(MISSING_WORDPRESS_CREDENTIALS);
  });
});
