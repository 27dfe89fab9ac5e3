// The Edge Functions' settings are read and checked in one place: a function that lacks one it
// needs does not start, and the error names it; nothing falls back to the local stack's values,
// which reach the functions only because the local stack passes them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../local/config.ts';
import { functionSettingsEnv } from '../../local/functions/functions.ts';
import { automationFunctionEnv } from '../../local/sandbox/automation/settings.ts';
import { oauthFunctionEnv } from '../../local/sandbox/oauth/settings.ts';
import { stripeFunctionEnv } from '../../local/sandbox/stripe/settings.ts';
import { FUNCTION_NAMES, readFunctionSettings, requiredSettings } from '../../supabase/functions/_shared/settings.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const functionsDir = path.join(root, 'supabase', 'functions');

const hosted = {
  SUPABASE_URL: 'https://abcdefghijklmnop.supabase.co',
  SUPABASE_ANON_KEY: 'anon',
  SUPABASE_SERVICE_ROLE_KEY: 'service-role',
  SUPABASE_DB_URL: 'postgresql://postgres:pw@db.abcdefghijklmnop.supabase.co:5432/postgres',
  SITE_URL: 'https://app.example.com/',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_live',
  STRIPE_PRICE_STARTER: 'price_s',
  STRIPE_PRICE_GROWTH: 'price_g',
  STRIPE_PRICE_SCALE: 'price_c',
  TOKEN_ENCRYPTION_KEYS: 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
};

describe('the functions settings', () => {
  it.each(FUNCTION_NAMES.map((name) => [name]))('%s without any names every setting it needs', (name) => {
    const error = (() => {
      try {
        readFunctionSettings({}, name);
      } catch (caught) {
        return (caught as Error).message;
      }
      return 'no error';
    })();
    for (const setting of requiredSettings[name]) expect(error).toContain(`${setting} is not set`);
    expect(error).toContain(`Edge Function ${name} misconfigured`);
  });

  it('names only what is missing', () => {
    expect(() => readFunctionSettings({ ...hosted, STRIPE_PRICE_GROWTH: ' ' }, 'api')).toThrow(
      /^Edge Function api misconfigured: STRIPE_PRICE_GROWTH is not set \(docs\/deploy\.md, section 4\)\.$/,
    );
    expect(() => readFunctionSettings({ ...hosted, STRIPE_WEBHOOK_SECRET: undefined }, 'stripe-webhook')).toThrow(
      /: STRIPE_WEBHOOK_SECRET is not set \(/,
    );
    // The webhook secret is not the api's business.
    expect(() => readFunctionSettings({ ...hosted, STRIPE_WEBHOOK_SECRET: undefined }, 'api')).not.toThrow();
  });

  it('has no fallback site: SITE_URL is required where it is used', () => {
    for (const name of ['api', 'oauth-callback', 'deliver-submissions'] as const) {
      expect(() => readFunctionSettings({ ...hosted, SITE_URL: undefined }, name)).toThrow(/SITE_URL is not set/);
    }
  });

  it('decides Secure cookies once, from the site: https, or plain http only on this machine', () => {
    expect(readFunctionSettings(hosted, 'api')).toMatchObject({
      siteUrl: 'https://app.example.com',
      secureCookies: true,
      oauthRedirectUri: 'https://app.example.com/oauth/callback',
    });
    const local = readFunctionSettings(
      { ...hosted, SUPABASE_URL: 'http://127.0.0.1:54321', SITE_URL: 'http://127.0.0.1:3000' },
      'api',
    );
    expect(local.secureCookies).toBe(false);
    expect(() => readFunctionSettings({ ...hosted, SITE_URL: 'http://app.example.com' }, 'api')).toThrow(
      /SITE_URL must be https/,
    );
    expect(() => readFunctionSettings({ ...hosted, SITE_URL: 'app.example.com' }, 'api')).toThrow(
      /SITE_URL is not an http\(s\) URL/,
    );
  });

  it('refuses malformed optional settings instead of ignoring them', () => {
    expect(() => readFunctionSettings({ ...hosted, AUTOMATION_MAX_ATTEMPTS: 'ten' }, 'deliver-submissions')).toThrow(
      /AUTOMATION_MAX_ATTEMPTS must be a positive integer/,
    );
    expect(() =>
      readFunctionSettings({ ...hosted, ALLOWED_ORIGIN: 'https://ok.example.com,not an origin' }, 'api'),
    ).toThrow(/ALLOWED_ORIGIN holds "not an origin"/);
    expect(
      readFunctionSettings({ ...hosted, ALLOWED_ORIGIN: 'https://other.example.com/' }, 'api').allowedOrigins,
    ).toEqual(new Set(['https://app.example.com', 'https://other.example.com']));
  });

  it("refuses the local stack's public secrets on a deployed project", () => {
    expect(() =>
      readFunctionSettings({ ...hosted, STRIPE_WEBHOOK_SECRET: 'whsec_castloop_local' }, 'stripe-webhook'),
    ).toThrow(/STRIPE_WEBHOOK_SECRET still hold the local stack's public default/);
  });

  it.each(FUNCTION_NAMES.map((name) => [name]))('%s starts with exactly what the local stack passes it', (name) => {
    const config = loadConfig('test');
    const env = functionSettingsEnv(config, {
      ...stripeFunctionEnv(config),
      ...oauthFunctionEnv(config),
      ...automationFunctionEnv(config),
    });
    const settings = readFunctionSettings(env, name);
    expect(settings.siteUrl).toBe(config.urls.web);
    expect(settings.supabaseUrl).toBe(config.urls.api);
  });
});

describe('every function', () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => {
      const file = path.join(dir, entry);
      return statSync(file).isDirectory()
        ? sources(file)
        : file.endsWith('.ts') && !file.endsWith('.test.ts')
          ? [file]
          : [];
    });

  it('reads its environment only through _shared/config.ts', () => {
    const readers = sources(functionsDir).filter((file) => /Deno\.env\.\w+\(/.test(readFileSync(file, 'utf8')));
    expect(readers.map((file) => path.relative(functionsDir, file))).toEqual(['_shared/config.ts']);
  });

  it.each(FUNCTION_NAMES.map((name) => [name]))('%s checks its settings before it serves', (name) => {
    const index = readFileSync(path.join(functionsDir, name, 'index.ts'), 'utf8');
    expect(index).toMatch(new RegExp(`requireSettings\\('${name}'\\);[\\s\\S]*serveFunction\\(`));
  });
});
