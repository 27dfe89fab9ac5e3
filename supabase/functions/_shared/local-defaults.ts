// The local stack's well-known secrets (.env.example, the Supabase CLI's demo keys). Anyone can
// read them, so a function that finds one while serving a non-loopback SUPABASE_URL refuses to
// start: a deployed project with the local Stripe webhook secret would accept forged events.
// Pure: the functions pass their environment in (settings.ts refuses them at start-up).
import { isLoopbackUrl } from './domain/loopback-url.ts';

export const localDefaultSecrets: Readonly<Record<string, string>> = {
  STRIPE_WEBHOOK_SECRET: 'whsec_castloop_local',
  STRIPE_SECRET_KEY: 'sk_test_castloop_local',
  AUTOMATION_WEBHOOK_SECRET: 'whsec_automation_local',
  EMAIL_UNSUBSCRIBE_SECRET: 'castloop-local-unsubscribe-secret',
  SUPABASE_JWT_SECRET: 'super-secret-jwt-token-with-at-least-32-characters-long',
  SUPABASE_DB_PASSWORD: 'postgres',
  SUPABASE_SERVICE_ROLE_KEY:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU',
};

/** Names of the variables that hold a local default secret where that is not allowed. */
export function misplacedLocalDefaults(env: Record<string, string | undefined>): string[] {
  if (isLoopbackUrl(env.SUPABASE_URL)) return [];
  return Object.entries(localDefaultSecrets)
    .filter(([name, value]) => env[name] === value)
    .map(([name]) => name);
}
