// Local Supabase Storage: the Storage API subset that @supabase/supabase-js and tus-js-client
// use, served by the gateway under /storage/v1. Bytes live under <dataDir>/storage; rows in
// storage.buckets / storage.objects, written under each caller's role so RLS applies.
import path from 'node:path';
import type { StackConfig } from '../config.ts';
import type { LocalService } from '../lib/service.ts';
import { loadSigningKeys } from '../lib/signing-keys.ts';
import type { StorageContext } from './context.ts';
import { StorageDb } from './db.ts';
import { ObjectFiles } from './files.ts';
import { Tokens } from './jwt.ts';
import { globalFileSizeLimit } from './limits.ts';
import { createHandler } from './routes.ts';
import { createTus } from './tus.ts';

export async function createStorageService(config: StackConfig): Promise<LocalService> {
  const files = new ObjectFiles(path.join(config.dataDir, 'storage'));
  await files.init();
  const db = new StorageDb(config);
  const ctx: StorageContext = {
    config,
    db,
    files,
    tokens: new Tokens(config.jwtSecret, loadSigningKeys(config).jwks),
    globalLimit: globalFileSizeLimit(config),
  };
  const tus = createTus(ctx);
  return {
    handler: createHandler(ctx, tus),
    close: async () => {
      tus.close();
      await db.close();
    },
  };
}
