// The `api` Edge Function's routes: every documented `/api/*` path of the spec.
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { HttpError } from '../_shared/http-error.ts';
import { authRoutes } from './routes/auth.ts';
import { billingRoutes } from './routes/billing.ts';
import { episodeRoutes } from './routes/episodes.ts';
import { recoverSessionRoutes } from './routes/recover-session.ts';

const allowedOrigins = (Deno.env.get('ALLOWED_ORIGIN') ?? Deno.env.get('SITE_URL') ?? '').split(',').map((o) => o.trim()).filter(Boolean);

export const app = new Hono().basePath('/api');

app.use('*', cors({ origin: (origin) => (allowedOrigins.includes(origin) ? origin : null), credentials: true }));

app.get('/health', (c) => c.json({ status: 'ok', service: 'api' }));
app.route('/auth', authRoutes);
app.route('/auth', recoverSessionRoutes);
app.route('/', billingRoutes);
app.route('/', episodeRoutes);

app.notFound((c) => c.json({ message: `No route for ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));

app.onError((error, c) => {
  if (error instanceof HttpError) return c.json({ message: error.message }, error.status);
  if (error instanceof HTTPException) return c.json({ message: error.message }, error.status);
  console.error(error);
  return c.json({ message: 'Internal server error' }, 500);
});
