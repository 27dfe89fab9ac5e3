// X and LinkedIn calls take only access tokens the OAuth sandbox issued and that still work.
import type { IncomingMessage } from 'node:http';
import { sendJson } from '../../lib/http.ts';
import type { TokenIdentity } from '../oauth/index.ts';
import type { SandboxRequest } from '../types.ts';

function bearer(req: IncomingMessage): string | null {
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;
}

export type WithToken = ReturnType<typeof tokenGuard>;

export function tokenGuard(identify: (token: string) => TokenIdentity | null) {
  /** The token's owner when the OAuth sandbox issued it for `platform` and it still works. */
  function authorised(request: SandboxRequest, platform: 'x' | 'linkedin'): string | null {
    const token = bearer(request.req);
    const identity = token ? identify(token) : null;
    if (identity?.valid && identity.provider === platform) return identity.owner;
    request.req.resume();
    if (platform === 'x') sendJson(request.res, 401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    else sendJson(request.res, 401, { status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' });
    return null;
  }

  /** X and LinkedIn calls: the handler runs for the token's owner, or the call is refused. */
  return (
    (platform: 'x' | 'linkedin', handler: (request: SandboxRequest, owner: string) => unknown) =>
    (request: SandboxRequest) => {
      const owner = authorised(request, platform);
      return owner ? handler(request, owner) : undefined;
    }
  );
}
