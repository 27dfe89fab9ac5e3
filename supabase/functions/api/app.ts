// The `api` Edge Function's routes: every documented `/api/*` path of the spec.
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { HttpError } from '../_shared/http-error.ts';
import { allowedOrigins, refuseCrossSiteWrites } from '../_shared/session.ts';
import { adminRoutes } from './routes/admin.ts';
import { authRoutes } from './routes/auth.ts';
import { billingRoutes } from './routes/billing.ts';
import { connectionRoutes } from './routes/connections.ts';
import { emailRoutes } from './routes/email.ts';
import { episodePageRoutes } from './routes/episode-page.ts';
import { episodeRoutes } from './routes/episodes.ts';
import { onboardingRoutes } from './routes/onboarding.ts';
import { podcastFeedRoutes } from './routes/podcast-feed.ts';
import { recoverSessionRoutes } from './routes/recover-session.ts';
import { reviewRoutes } from './routes/review.ts';

const origins = allowedOrigins();

export const app = new Hono().basePath('/api');

// Every route, present and future: CORS only for the site's own origins, and no state change
// from another site (registered before the routes, so each one inherits both; the unsubscribe
// link alone is let through, below).
app.use('*', cors({ origin: (origin) => (origins.has(origin) ? origin : null), credentials: true }));
// The e-mails' one-click unsubscribe: a mail client POSTs it from anywhere, with no session; the
// signed link in its address is the whole authority (routes/email.ts). Registered before the
// cross-site check, which guards what a session may change.
app.route('/', emailRoutes);
app.use('*', refuseCrossSiteWrites(origins));

app.get('/health', (c) => c.json({ status: 'ok', service: 'api' }));
app.route('/auth', authRoutes);
app.route('/auth', recoverSessionRoutes);
app.route('/', billingRoutes);
app.route('/admin', adminRoutes);
app.route('/', onboardingRoutes);
app.route('/', connectionRoutes);
app.route('/', episodeRoutes);
app.route('/', podcastFeedRoutes);
// After episodeRoutes, so /episodes/stats is not taken for an episode id.
app.route('/', episodePageRoutes);
app.route('/', reviewRoutes);

app.notFound((c) => c.json({ message: `No route for ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));

app.onError((error, c) => {
  if (error instanceof HttpError) return c.json({ message: error.message }, error.status);
  if (error instanceof HTTPException) return c.json({ message: error.message }, error.status);
  console.error(error);
  return c.json({ message: 'Internal server error' }, 500);
});
