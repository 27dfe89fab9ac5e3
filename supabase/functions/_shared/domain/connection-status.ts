// Social and cloud-drive connections (spec sections 3, 4, 6 and 9): the providers in the spec's
// order, who may connect which, and the display state derived from a stored connection.
// The SQL twin of `connectionDisplayState` is `private.connection_display_state` (it gates
// episode submission); tests/db/connection-state-agreement.test.ts feeds both the same rows.
import { z } from 'zod/mini';
import { Constants, type Enums } from '../database.types.ts';

/** The providers in the spec's order: the SQL enum `public.provider`, through the generated types. */
export const PROVIDER_IDS = Constants.public.Enums.provider;
export type ProviderId = Enums<'provider'>;
export type OAuthProviderId = Exclude<ProviderId, 'wordpress'>;

/**
 * The platforms the worker posts clips to, in the order a clip goes out: those every subscriber
 * may connect (private.posting_providers() in SQL says the same; tests/db/domain-constants.test.ts).
 * Facebook, Instagram and TikTok (open only to the internal test account) are not posted to yet.
 */
export const POSTING_PROVIDERS = ['youtube', 'x', 'linkedin', 'wordpress'] as const satisfies readonly ProviderId[];
export type PostingProvider = (typeof POSTING_PROVIDERS)[number];

const PROVIDER_DISPLAY: Record<ProviderId, { label: string; purpose: string }> = {
  google: { label: 'Google Drive', purpose: 'Store and access files' },
  youtube: { label: 'YouTube', purpose: 'Upload clips and full episodes' },
  facebook: { label: 'Facebook', purpose: 'Share posts and updates' },
  instagram: { label: 'Instagram', purpose: 'Share stories and posts' },
  tiktok: { label: 'TikTok', purpose: 'Post short-form clips' },
  x: { label: 'X (Twitter)', purpose: 'Share updates and clips' },
  linkedin: { label: 'LinkedIn', purpose: 'Share professional updates' },
  wordpress: { label: 'WordPress', purpose: 'Publish posts and content' },
};

export const PROVIDERS = PROVIDER_IDS.map((id) => ({ id, ...PROVIDER_DISPLAY[id] }));

/** Open to every subscriber; the rest only to the operator-flagged internal test account. */
const OPEN_PROVIDERS: readonly ProviderId[] = ['google', 'youtube', 'x', 'wordpress', 'linkedin'];

export function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(value);
}

export function isOAuthProviderId(value: string): value is OAuthProviderId {
  return isProviderId(value) && value !== 'wordpress';
}

export function providerLabel(provider: ProviderId): string {
  return PROVIDER_DISPLAY[provider].label;
}

export function isProviderAvailable(provider: ProviderId, isInternalTestAccount: boolean): boolean {
  return isInternalTestAccount || OPEN_PROVIDERS.includes(provider);
}

/** Spec section 9 freshness rules. */
const FRESH_UPDATE_MS = 10 * 60 * 1000;
const GOOGLE_STALE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
const FACEBOOK_NO_EXPIRY_MAX_AGE_MS = 60 * 24 * 60 * 60 * 1000;

export type ConnectionDisplayState = 'connected' | 'expired' | 'failed' | 'disconnected';
export type StoredStatus = 'connected' | 'expired' | 'failed' | null;

/** What is stored about one connection, without any token material. */
export interface ConnectionFacts {
  connected: boolean;
  status: StoredStatus;
  hasAccessToken: boolean;
  hasRefreshToken: boolean;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Spec section 4 "Connection display state per provider". */
export function connectionDisplayState(provider: ProviderId, facts: ConnectionFacts | null, now: Date): ConnectionDisplayState {
  // A connection flagged not connected counts as none, except where Instagram's own rule says failed.
  if (!facts || !facts.hasAccessToken || (!facts.connected && provider !== 'instagram')) return 'disconnected';
  const at = now.getTime();
  const expiry = facts.expiresAt === null ? null : Date.parse(facts.expiresAt);
  const expired = expiry !== null && expiry <= at;
  const recentlyUpdated = at - Date.parse(facts.updatedAt) < FRESH_UPDATE_MS;
  const age = at - Date.parse(facts.createdAt);

  switch (provider) {
    case 'instagram':
      if (!facts.connected || facts.status === 'failed') return 'failed';
      return facts.status === 'expired' ? 'expired' : 'connected';
    case 'facebook':
      if (recentlyUpdated) return 'connected';
      if (expired) return 'expired';
      if (expiry === null && age > FACEBOOK_NO_EXPIRY_MAX_AGE_MS) return 'expired';
      return 'connected';
    case 'wordpress':
      return 'connected';
    case 'google':
    case 'youtube':
      if (!facts.hasRefreshToken) return 'failed';
      if (expired) return 'expired';
      if (age > GOOGLE_STALE_AFTER_MS && !recentlyUpdated) return 'failed';
      return 'connected';
    default:
      return expired ? 'expired' : 'connected';
  }
}

interface ConnectionSummary {
  /** Connections that are not disconnected. */
  total: number;
  working: number;
  needAttention: number;
}

export function summarizeConnections(states: readonly ConnectionDisplayState[]): ConnectionSummary {
  const working = states.filter((s) => s === 'connected').length;
  const needAttention = states.filter((s) => s === 'expired' || s === 'failed').length;
  return { total: working + needAttention, working, needAttention };
}

/** One entry of `GET /api/oauth-connections`: every provider, in the spec's order. */
export interface ConnectionEntry extends ConnectionFacts {
  provider: ProviderId;
  /** Whether this account may connect the provider. */
  available: boolean;
  /** The account as the provider names it (WordPress: user and site). */
  accountLabel: string | null;
}

/** `POST /api/oauth/refresh-all`. */
export interface TokenCheckResult {
  validated: { provider: ProviderId }[];
  refreshed: { provider: ProviderId }[];
  failed: { provider: ProviderId; message: string }[];
  needsReauth: { provider: ProviderId }[];
}

const providerSchema = z.enum(PROVIDER_IDS);

/** GET /api/oauth-connections as the SPA parses it. */
export const connectionListSchema: z.ZodMiniType<ConnectionEntry[]> = z.array(
  z.object({
    provider: providerSchema,
    available: z.boolean(),
    accountLabel: z.nullable(z.string()),
    connected: z.boolean(),
    status: z.nullable(z.enum(['connected', 'expired', 'failed'])),
    hasAccessToken: z.boolean(),
    hasRefreshToken: z.boolean(),
    expiresAt: z.nullable(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);

/** POST /api/oauth/refresh-all as the SPA parses it. */
export const tokenCheckResultSchema: z.ZodMiniType<TokenCheckResult> = z.object({
  validated: z.array(z.object({ provider: providerSchema })),
  refreshed: z.array(z.object({ provider: providerSchema })),
  failed: z.array(z.object({ provider: providerSchema, message: z.string() })),
  needsReauth: z.array(z.object({ provider: providerSchema })),
});

/** GET /api/oauth/{provider}: where the browser goes to authorize. */
export const authorizationAddressSchema = z.object({ authUrl: z.string() });
