// The OAuth and WordPress settings of the local stack. Per provider,
// OAUTH_<PROVIDER>_SANDBOX_URL decides where the functions send the provider's OAuth calls:
// unset means this stack's sandbox; set empty (dev only) means the real service, which then
// needs OAUTH_<PROVIDER>_CLIENT_ID and OAUTH_<PROVIDER>_CLIENT_SECRET.
import type { StackConfig } from '../../config.ts';

export const OAUTH_SANDBOX_PROVIDERS = ['google', 'youtube', 'facebook', 'instagram', 'tiktok', 'x', 'linkedin'] as const;
export type SandboxProvider = (typeof OAUTH_SANDBOX_PROVIDERS)[number];

/** The sandbox's client credentials for a provider (nothing secret: local only). */
export function sandboxClient(provider: SandboxProvider): { id: string; secret: string } {
  return { id: `castloop-local-${provider}`, secret: `castloop-local-${provider}-secret` };
}

/** A local-only key (never use it anywhere else): `id:base64 of 32 bytes`. */
const LOCAL_TOKEN_KEYS = 'local-1:Y2FzdGxvb3AtbG9jYWwtdG9rZW4ta2V5LTMyLWJ5dGU=';

/** The variables the Edge Functions need for connections, resolved for this stack. */
export function oauthFunctionEnv(config: StackConfig): Record<string, string> {
  const env: Record<string, string> = {
    TOKEN_ENCRYPTION_KEYS: config.env.TOKEN_ENCRYPTION_KEYS || LOCAL_TOKEN_KEYS,
    // Local WordPress sites (the sandbox's) are plain http on the loopback address: only this
    // origin may be called there (not any loopback port), and only because configuration says so.
    WORDPRESS_SANDBOX_ORIGINS: config.env.WORDPRESS_SANDBOX_ORIGINS || config.urls.sandbox,
  };
  for (const provider of OAUTH_SANDBOX_PROVIDERS) {
    const key = provider.toUpperCase();
    const raw = config.env[`OAUTH_${key}_SANDBOX_URL`];
    const useSandbox = config.profile === 'test' || raw === undefined || raw !== '';
    const client = sandboxClient(provider);
    env[`OAUTH_${key}_SANDBOX_URL`] = useSandbox ? config.urls.sandbox : '';
    env[`OAUTH_${key}_CLIENT_ID`] = useSandbox ? client.id : (config.env[`OAUTH_${key}_CLIENT_ID`] ?? '');
    env[`OAUTH_${key}_CLIENT_SECRET`] = useSandbox ? client.secret : (config.env[`OAUTH_${key}_CLIENT_SECRET`] ?? '');
  }
  return env;
}
