// `oauth-callback`: where every OAuth provider sends the browser back (the site's
// `/oauth/callback` routes here). No JWT (verify_jwt = false): the single-use state, bound to
// the user and to the browser that started the flow, authenticates the request.
import { requireSettings } from '../_shared/config.ts';
import { serveFunction } from '../_shared/serve.ts';
import { handleOAuthCallback } from './handler.ts';

requireSettings('oauth-callback');
serveFunction(handleOAuthCallback);
