// The transactional e-mail settings (issue 43, item 1), read and checked with the functions' other
// settings (settings.ts). Pure: the environment is passed in.
//   EMAIL_PROVIDER    smtp (default) or resend (Resend's HTTP API shape)
//   EMAIL_FROM        the sender, e.g. "Castloop <notifications@castloop.com>"
//   EMAIL_UNSUBSCRIBE_SECRET   signs the unsubscribe links (send-emails signs, the api checks)
//   smtp:   EMAIL_SMTP_HOST, EMAIL_SMTP_PORT, EMAIL_SMTP_SECURITY (tls | starttls | none),
//           EMAIL_SMTP_USER, EMAIL_SMTP_PASSWORD
//   resend: EMAIL_API_KEY, EMAIL_API_URL (default https://api.resend.com/emails)
// Hosted Edge Functions may not open connections to ports 25 and 587, so a deployed project's SMTP
// uses implicit TLS (465) or a provider's other port (2465, 2587), or the HTTP API.
import { isLoopbackUrl } from './domain/loopback-url.ts';

type Env = Record<string, string | undefined>;

export const EMAIL_PROVIDERS = ['smtp', 'resend'] as const;
type EmailProvider = (typeof EMAIL_PROVIDERS)[number];
export const SMTP_SECURITY = ['tls', 'starttls', 'none'] as const;
type SmtpSecurity = (typeof SMTP_SECURITY)[number];

export const RESEND_API_URL = 'https://api.resend.com/emails';
/** Ports hosted Edge Functions cannot reach (Supabase's limits). */
const BLOCKED_PORTS = [25, 587];

export interface SmtpSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  user: string;
  password: string;
}

export interface EmailSettings {
  provider: EmailProvider;
  from: string;
  unsubscribeSecret: string;
  smtp: SmtpSettings | null;
  api: { url: string; key: string } | null;
}

const read = (env: Env, name: string) => env[name]?.trim() ?? '';

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T, problems: string[]): T {
  const raw = read(env, name);
  if (!raw) return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  problems.push(`${name} must be one of ${allowed.join(', ')}`);
  return fallback;
}

function smtpSettings(env: Env, options: { sends: boolean; hosted: boolean }, problems: string[]): SmtpSettings | null {
  const host = read(env, 'EMAIL_SMTP_HOST');
  if (!host) {
    if (options.sends) problems.push('EMAIL_SMTP_HOST is not set');
    return null;
  }
  const security = oneOf(env, 'EMAIL_SMTP_SECURITY', SMTP_SECURITY, 'tls', problems);
  const rawPort = read(env, 'EMAIL_SMTP_PORT');
  const port = rawPort ? Number(rawPort) : security === 'tls' ? 465 : 587;
  if (!Number.isInteger(port) || port < 1 || port > 65535) problems.push('EMAIL_SMTP_PORT must be a port number');
  if (security === 'none' && !isLoopbackUrl(`smtp://${host}`)) problems.push('EMAIL_SMTP_SECURITY none is for this machine only: use tls or starttls');
  if (options.hosted && BLOCKED_PORTS.includes(port)) {
    problems.push(`EMAIL_SMTP_PORT ${port} cannot be reached from hosted Edge Functions: use 465 (tls) or the provider's other port, or EMAIL_PROVIDER=resend`);
  }
  return { host, port, security, user: read(env, 'EMAIL_SMTP_USER'), password: read(env, 'EMAIL_SMTP_PASSWORD') };
}

function apiSettings(env: Env, sends: boolean, problems: string[]): EmailSettings['api'] {
  const key = read(env, 'EMAIL_API_KEY');
  const url = read(env, 'EMAIL_API_URL') || RESEND_API_URL;
  if (!key) {
    if (sends) problems.push('EMAIL_API_KEY is not set');
    return null;
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && !isLoopbackUrl(url)) problems.push('EMAIL_API_URL must be https');
  } catch {
    problems.push('EMAIL_API_URL is not a URL');
  }
  return { url, key };
}

/** The e-mail settings; `sends`: the function that sends (send-emails) needs its provider's too. */
export function emailSettingsFromEnv(env: Env, options: { sends: boolean; hosted: boolean }, problems: string[]): EmailSettings {
  const provider = oneOf(env, 'EMAIL_PROVIDER', EMAIL_PROVIDERS, 'smtp', problems);
  const from = read(env, 'EMAIL_FROM');
  if (from && !/^[^<>@\s]+@[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/.test(from)) {
    problems.push('EMAIL_FROM must be an address or "Name <address>"');
  }
  return {
    provider,
    from,
    unsubscribeSecret: read(env, 'EMAIL_UNSUBSCRIBE_SECRET'),
    smtp: provider === 'smtp' ? smtpSettings(env, options, problems) : null,
    api: provider === 'resend' ? apiSettings(env, options.sends, problems) : null,
  };
}
