// The `api` Edge Function: every signed-in `/api/*` path of the spec, as one Hono app.
import { app } from './app.ts';

Deno.serve(app.fetch);
