// Local Auth: a GoTrue-compatible subset so @supabase/supabase-js works unchanged through the
// gateway at /auth/v1. Users, sessions and refresh tokens live in Supabase's auth.* tables.
import type { StackConfig } from '../config.ts';
import type { LocalService } from '../lib/service.ts';
import { createLimiter, type AuthContext } from './context.ts';
import { createPool } from './db.ts';
import { Mailer } from './mail.ts';
import { createAuthRouter } from './router.ts';
import { loadAuthSettings, type AuthSettings } from './settings.ts';

interface AuthServiceOptions {
  /** Replaces parts of the settings read from config.toml (tests: e.g. low rate limits). */
  settings?: (settings: AuthSettings) => AuthSettings;
  log?: (line: string) => void;
}

export async function createAuthService(config: StackConfig, options: AuthServiceOptions = {}): Promise<LocalService> {
  const loaded = loadAuthSettings(config);
  const settings = options.settings ? options.settings(loaded) : loaded;
  const db = createPool(config);
  const mailer = new Mailer(settings);
  const ctx: AuthContext = {
    settings,
    db,
    mailer,
    limit: createLimiter(settings),
    log: options.log ?? ((line) => console.error(line)),
  };
  const router = createAuthRouter(ctx);
  return {
    handler: (req, res) => router(req, res),
    close: async () => {
      mailer.close();
      await db.end();
    },
  };
}
