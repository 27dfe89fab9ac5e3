import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';

export const app = new Hono().basePath('/api');

app.use('*', cors({ origin: (origin) => origin ?? '*', credentials: true }));

app.get('/health', (c) => c.json({ status: 'ok', service: 'api' }));

app.notFound((c) => c.json({ message: `No route for ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));

app.onError((error, c) => {
  if (error instanceof HTTPException) return c.json({ message: error.message }, error.status);
  console.error(error);
  return c.json({ message: 'Internal server error' }, 500);
});
