// The `api` Edge Function: every signed-in `/api/*` path of the spec, as one Hono app.
import { refuseLocalDefaults } from '../_shared/local-defaults.ts';
import { app } from './app.ts';

refuseLocalDefaults(Deno.env.toObject());
Deno.serve(app.fetch);
