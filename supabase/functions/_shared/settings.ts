// Every setting the Edge Functions read, read and checked in one place. Pure (the environment is
// passed in) so it is tested without Deno; `config.ts` applies it to Deno.env once per function.
// Nothing here falls back to the local stack's values: the local stack passes every setting
// itself (local/functions/functions.ts), as `supabase secrets set` does for a hosted project.
import { isOAuthProviderId, PROVIDERS, type OAuthProviderId } from './domain/connection-status.ts';
import { isLoopbackUrl } from './domain/loopback-url.ts';
import { oauthProviderConfigFromEnv, type OAuthProviderConfig } from './domain-server/oauth-token-endpoint.ts';
import { MAX_DELIVERY_ATTEMPTS } from './domain-server/outbox.ts';
import { emailSettingsFromEnv, type EmailSettings } from './email-settings.ts';
import { PLAN_TIERS } from './domain/plans.ts';
import { parseOrigins } from './domain-server/public-address.ts';
import { misplacedLocalDefaults } from './local-defaults.ts';

type Env = Record<string, string | undefined>;

export interface FunctionSettings {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  dbUrl: string;
  /** The SPA's address, without a trailing slash (Stripe, OAuth and e-mailed links return there). */
  siteUrl: string;
  /** The site's origins: SITE_URL's and the comma-separated ALLOWED_ORIGIN's. */
  allowedOrigins: Set<string>;
  /** Cookies are Secure when the site is served over https (decided here only). */
  secureCookies: boolean;
  /** The one redirect URI every OAuth provider is registered with (OAUTH_REDIRECT_URI overrides). */
  oauthRedirectUri: string;
  /** Each OAuth provider with its client id and secret set (a provider without them answers 503). */
  oauthClients: Partial<Record<OAuthProviderId, OAuthProviderConfig>>;
  stripe: {
    secretKey: string;
    webhookSecret: string;
    /** The local sandbox; null talks to Stripe itself. */
    apiBase: URL | null;
    /** The price id of each plan tier (STRIPE_PRICE_STARTER, _GROWTH, _SCALE). */
    priceIds: Record<string, string>;
    /** The one-time price of an extra episode on the largest plan (STRIPE_PRICE_EXTRA_EPISODE; '' when not sold). */
    extraEpisodePriceId: string;
  };
  /** `id:base64` keys, parsed (and refused with a 503) where a token is sealed or opened. */
  tokenEncryptionKeys: string;
  /** The local stack's sandbox origins, allowed as WordPress sites over http on loopback (local only). */
  wordpressSandboxOrigins: string[];
  /** Only with the external automation (deliver-submissions answers 503 without URL and secret). */
  automation: { webhookUrl: string; secret: string; maxAttempts: number; timeoutSeconds: number };
  /**
   * PODCAST_FEEDS_PUBLIC_URL without a trailing slash: where podcast apps fetch the podcast feeds'
   * bucket when a CDN or custom domain is in front of it; null for Storage's own public URL.
   */
  podcastFeedsUrl: string | null;
  /** Transactional e-mail: the provider, the sender, the unsubscribe links' secret (email-settings.ts). */
  email: EmailSettings;
}

export const FUNCTION_NAMES = [
  'api',
  'stripe-webhook',
  'oauth-callback',
  'oauth-refresh',
  'deliver-submissions',
  'storage-cleanup',
  'podcast-feed-builder',
  'send-emails',
] as const;
export type FunctionName = (typeof FUNCTION_NAMES)[number];

const platform = ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_DB_URL'];
const stripePrices = PLAN_TIERS.map((tier) => `STRIPE_PRICE_${tier.toUpperCase()}`);

/** What each function cannot work without (SUPABASE_* are set by the platform). */
export const requiredSettings: Record<FunctionName, readonly string[]> = {
  api: [...platform, 'SITE_URL', 'STRIPE_SECRET_KEY', ...stripePrices, 'TOKEN_ENCRYPTION_KEYS'],
  'stripe-webhook': [...platform, 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', ...stripePrices],
  'oauth-callback': [...platform, 'SITE_URL', 'TOKEN_ENCRYPTION_KEYS'],
  'oauth-refresh': [...platform, 'TOKEN_ENCRYPTION_KEYS'],
  'deliver-submissions': [...platform, 'SITE_URL'],
  'storage-cleanup': platform,
  'podcast-feed-builder': platform,
  'send-emails': [...platform, 'SITE_URL', 'EMAIL_FROM', 'EMAIL_UNSUBSCRIBE_SECRET'],
};

const value = (env: Env, name: string) => env[name]?.trim() ?? '';

function httpUrl(env: Env, name: string, problems: string[]): URL | null {
  const raw = value(env, name);
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  problems.push(`${name} is not an http(s) URL`);
  return null;
}

function positiveInt(env: Env, name: string, problems: string[]): number | null {
  const raw = value(env, name);
  if (!raw) return null;
  const parsed = Number(raw);
  if (Number.isInteger(parsed) && parsed > 0) return parsed;
  problems.push(`${name} must be a positive integer`);
  return null;
}

function origins(values: string[], problems: string[]): Set<string> {
  const out = new Set<string>();
  for (const entry of values.map((v) => v.trim()).filter(Boolean)) {
    try {
      out.add(new URL(entry).origin);
    } catch {
      problems.push(`ALLOWED_ORIGIN holds "${entry}", not an origin`);
    }
  }
  return out;
}

/** Thrown at start-up: the function does not serve, and the message names every problem. */
export class SettingsError extends Error {
  constructor(name: FunctionName | undefined, problems: string[]) {
    super(
      `${name ? `Edge Function ${name}` : 'Edge Functions'} misconfigured: ${problems.join('; ')} (docs/deploy.md, section 4).`,
    );
    this.name = 'SettingsError';
  }
}

/**
 * The settings, or a SettingsError naming every wrong one and, with `name`, every one that
 * function needs and lacks.
 */
export function readFunctionSettings(env: Env, name?: FunctionName): FunctionSettings {
  const required = name ? requiredSettings[name] : [];
  const problems = required.filter((setting) => !value(env, setting)).map((setting) => `${setting} is not set`);
  const site = httpUrl(env, 'SITE_URL', problems);
  // Browsers drop Secure cookies on plain http, so only this machine may serve the site without TLS.
  if (site && site.protocol !== 'https:' && !isLoopbackUrl(site.href))
    problems.push('SITE_URL must be https (http only on this machine)');
  const stripeApiBase = httpUrl(env, 'STRIPE_API_BASE', problems);
  httpUrl(env, 'AUTOMATION_WEBHOOK_URL', problems);
  const podcastFeedsUrl = httpUrl(env, 'PODCAST_FEEDS_PUBLIC_URL', problems);
  const maxAttempts = positiveInt(env, 'AUTOMATION_MAX_ATTEMPTS', problems);
  const timeoutSeconds = positiveInt(env, 'AUTOMATION_TIMEOUT_SECONDS', problems) ?? 30;
  const allowedOrigins = origins([site?.href ?? '', ...value(env, 'ALLOWED_ORIGIN').split(',')], problems);
  const email = emailSettingsFromEnv(env, { sends: name === 'send-emails', hosted: !isLoopbackUrl(value(env, 'SUPABASE_URL')) }, problems);
  const localDefaults = misplacedLocalDefaults(env);
  if (localDefaults.length > 0) {
    problems.push(
      `${localDefaults.join(', ')} still hold the local stack's public default, and SUPABASE_URL is not a loopback address`,
    );
  }
  if (problems.length > 0) throw new SettingsError(name, problems);

  const siteUrl = site ? site.href.replace(/\/+$/, '') : '';
  const oauthClients: FunctionSettings['oauthClients'] = {};
  for (const { id } of PROVIDERS) {
    const client = isOAuthProviderId(id) ? oauthProviderConfigFromEnv(id, env) : null;
    if (client) oauthClients[client.id] = client;
  }
  return {
    supabaseUrl: value(env, 'SUPABASE_URL').replace(/\/+$/, ''),
    anonKey: value(env, 'SUPABASE_ANON_KEY'),
    serviceRoleKey: value(env, 'SUPABASE_SERVICE_ROLE_KEY'),
    dbUrl: value(env, 'SUPABASE_DB_URL'),
    siteUrl,
    allowedOrigins,
    secureCookies: site?.protocol === 'https:',
    oauthRedirectUri: value(env, 'OAUTH_REDIRECT_URI') || `${siteUrl}/oauth/callback`,
    oauthClients,
    stripe: {
      secretKey: value(env, 'STRIPE_SECRET_KEY'),
      webhookSecret: value(env, 'STRIPE_WEBHOOK_SECRET'),
      apiBase: stripeApiBase,
      priceIds: Object.fromEntries(
        PLAN_TIERS.map((tier) => [tier, value(env, `STRIPE_PRICE_${tier.toUpperCase()}`)]).filter(([, id]) => id),
      ),
      extraEpisodePriceId: value(env, 'STRIPE_PRICE_EXTRA_EPISODE'),
    },
    tokenEncryptionKeys: value(env, 'TOKEN_ENCRYPTION_KEYS'),
    wordpressSandboxOrigins: parseOrigins(value(env, 'WORDPRESS_SANDBOX_ORIGINS')),
    automation: {
      webhookUrl: value(env, 'AUTOMATION_WEBHOOK_URL'),
      secret: value(env, 'AUTOMATION_WEBHOOK_SECRET'),
      maxAttempts: maxAttempts ?? MAX_DELIVERY_ATTEMPTS,
      timeoutSeconds,
    },
    podcastFeedsUrl: podcastFeedsUrl ? podcastFeedsUrl.href.replace(/\/+$/, '') : null,
    email,
  };
}
