// Placeholder until local/auth is built (issue: Local Auth).
import type { StackConfig } from '../config.ts';
import { sendJson, type LocalService } from '../lib/service.ts';

export async function createAuthService(_config: StackConfig): Promise<LocalService> {
  return {
    handler: (_req, res) => sendJson(res, 503, { message: 'local auth is not built yet' }),
    close: async () => {},
  };
}
