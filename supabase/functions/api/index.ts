// The `api` Edge Function: every signed-in `/api/*` path of the spec, as one Hono app.
import { requireSettings } from '../_shared/config.ts';
import { serveFunction } from '../_shared/serve.ts';
import { app } from './app.ts';

requireSettings('api');
serveFunction(app.fetch);
