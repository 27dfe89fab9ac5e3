// The `api` Edge Function: every signed-in `/api/*` path of the spec, as one Hono app.
import { requireSettings } from '../_shared/config.ts';
import { app } from './app.ts';

requireSettings('api');
Deno.serve(app.fetch);
