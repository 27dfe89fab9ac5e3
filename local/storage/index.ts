// Placeholder until local/storage is built (issue: Local Storage).
import type { StackConfig } from '../config.ts';
import { sendJson, type LocalService } from '../lib/service.ts';

export async function createStorageService(_config: StackConfig): Promise<LocalService> {
  return {
    handler: (_req, res) => sendJson(res, 503, { message: 'local storage is not built yet' }),
    close: async () => {},
  };
}
