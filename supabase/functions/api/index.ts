// The `api` Edge Function: every signed-in `/api/*` path of the spec, as one Hono app.
import { refuseLocalDefaults } from '../_shared/local-defaults.ts';
import { serveFunction } from '../_shared/serve.ts';
import { app } from './app.ts';

refuseLocalDefaults(Deno.env.toObject());
serveFunction(app.fetch);
