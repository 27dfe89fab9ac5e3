// Auth settings from supabase/config.toml's [auth] tables, as the Supabase CLI passes them to
// GoTrue, plus what only the local stack knows (its URLs and JWT secret).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { repoRoot, type StackConfig } from '../config.ts';
import { loadSigningKeys, type SigningKeys } from '../lib/signing-keys.ts';

export type TemplateKind = 'confirmation' | 'recovery' | 'magic_link' | 'email_change' | 'invite' | 'reauthentication';

interface EmailTemplate {
  subject: string | null;
  /** Absolute path of the template file, or null for GoTrue's built-in text. */
  contentPath: string | null;
}

interface RateLimits {
  enabled: boolean;
  /** Per IP per 5 minutes: /signup and /token?grant_type=password. */
  signInSignUps: number;
  /** Per IP per 5 minutes: /verify. */
  tokenVerifications: number;
  /** Per IP per 5 minutes: /token?grant_type=refresh_token. */
  tokenRefresh: number;
  /** Per IP per hour: e-mails sent (/recover, /otp, /magiclink, signups needing confirmation). */
  emailSent: number;
}

export interface AuthSettings {
  /** Where links in e-mails and redirects go by default: the web server of this stack profile. */
  siteUrl: string;
  /** Other site URLs whose host is trusted (config.toml's site_url). */
  trustedSites: string[];
  /** Glob patterns of extra allowed redirect targets (additional_redirect_urls). */
  redirectPatterns: string[];
  /** Public URL of this service: `${api}/auth/v1`; also the `iss` claim. */
  externalUrl: string;
  /** The legacy HS256 secret: still verifies the anon and service keys and older sessions. */
  jwtSecret: string;
  /** The asymmetric keys: the first signs sessions, all verify (served as the JWKS). */
  signingKeys: SigningKeys;
  jwtExpiry: number;
  enableSignup: boolean;
  emailSignupEnabled: boolean;
  /** An e-mail change needs the links sent to both addresses (double_confirm_changes). */
  secureEmailChange: boolean;
  /** true when e-mail confirmations are off: signups are confirmed at once. */
  autoconfirm: boolean;
  minimumPasswordLength: number;
  /** bcrypt's cost: GoTrue's 10, or 4 in the test profile (any cost verifies). */
  passwordHashCost: number;
  refreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  otpExpiry: number;
  otpLength: number;
  /** Minimum seconds between two e-mails to the same user (max_frequency). */
  maxFrequency: number;
  rateLimit: RateLimits;
  templates: Record<TemplateKind, EmailTemplate>;
  smtp: { host: string; port: number; adminEmail: string; senderName: string };
}

type Table = Record<string, unknown>;

function table(value: unknown): Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Table) : {};
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** Go-style durations as config.toml uses them: "1s", "60s", "1m30s", "1h". */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(trimmed)) return null;
  const factors: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  let seconds = 0;
  for (const [, amount, , unit] of trimmed.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g))
    seconds += Number(amount) * factors[unit];
  return seconds;
}

export function loadAuthSettings(
  config: StackConfig,
  tomlPath = path.join(repoRoot, 'supabase', 'config.toml'),
): AuthSettings {
  const toml = parse(readFileSync(tomlPath, 'utf8')) as Table;
  const auth = table(toml.auth);
  const email = table(auth.email);
  const rate = table(auth.rate_limit);
  const templates = table(email.template);
  // As the Supabase CLI: [auth.email.smtp] when enabled, else the local mailbox's sender
  // ([local_smtp], formerly [inbucket]).
  const customSmtp = table(email.smtp);
  const sender =
    Object.keys(customSmtp).length > 0 && bool(customSmtp.enabled, true)
      ? customSmtp
      : table(toml.local_smtp ?? toml.inbucket);

  const template = (kind: TemplateKind): EmailTemplate => {
    const entry = table(templates[kind]);
    const contentPath = typeof entry.content_path === 'string' ? path.resolve(repoRoot, entry.content_path) : null;
    return { subject: typeof entry.subject === 'string' ? entry.subject : null, contentPath };
  };

  const configuredSite = str(auth.site_url, 'http://127.0.0.1:3000');
  const additional = Array.isArray(auth.additional_redirect_urls)
    ? auth.additional_redirect_urls.filter((entry): entry is string => typeof entry === 'string')
    : [];
  // The test profile shifts every port; its limits are scaled so a whole test run fits in them.
  const scale = config.profile === 'test' ? 100 : 1;

  return {
    siteUrl: config.urls.web,
    trustedSites: [config.urls.web, configuredSite],
    redirectPatterns: additional,
    externalUrl: `${config.urls.api}/auth/v1`,
    jwtSecret: config.jwtSecret,
    signingKeys: loadSigningKeys(config),
    jwtExpiry: num(auth.jwt_expiry, 3600),
    enableSignup: bool(auth.enable_signup, true),
    emailSignupEnabled: bool(email.enable_signup, true),
    secureEmailChange: bool(email.double_confirm_changes, true),
    autoconfirm: !bool(email.enable_confirmations, false),
    minimumPasswordLength: Math.max(6, num(auth.minimum_password_length, 6)),
    // The tests create and sign in hundreds of users on 2 cores: at cost 10 bcrypt alone took
    // tens of CPU seconds of a run. Hashes of either cost verify alike.
    passwordHashCost: config.profile === 'test' ? 4 : 10,
    refreshTokenRotation: bool(auth.enable_refresh_token_rotation, true),
    refreshTokenReuseInterval: num(auth.refresh_token_reuse_interval, 10),
    otpExpiry: num(email.otp_expiry, 3600),
    otpLength: num(email.otp_length, 6),
    maxFrequency: parseDuration(str(email.max_frequency, '1m')) ?? 60,
    rateLimit: {
      enabled: config.env.CASTLOOP_AUTH_RATE_LIMIT !== 'off',
      signInSignUps: num(rate.sign_in_sign_ups, 30) * scale,
      tokenVerifications: num(rate.token_verifications, 30) * scale,
      tokenRefresh: num(rate.token_refresh, 150) * scale,
      emailSent: num(rate.email_sent, 2) * scale,
    },
    templates: {
      confirmation: template('confirmation'),
      recovery: template('recovery'),
      magic_link: template('magic_link'),
      email_change: template('email_change'),
      invite: template('invite'),
      reauthentication: template('reauthentication'),
    },
    smtp: {
      host: config.host,
      port: config.ports.smtp,
      adminEmail: str(sender.admin_email, 'admin@email.com'),
      senderName: str(sender.sender_name, ''),
    },
  };
}
