// Session recovery after checkout (spec section 4), made safe (docs/security.md): the
// caller must present a completed, paid, recent checkout session whose customer e-mail matches,
// and each checkout session works once. An e-mail address alone never yields a session.
import { Hono } from 'hono';
import { z } from 'zod';
import { db } from '../../_shared/db.ts';
import { recoverableUserId } from '../../_shared/domain/checkout-recovery.ts';
import { HttpError } from '../../_shared/http-error.ts';
import { callerAddress, loadAccount, setSessionCookies } from '../../_shared/session.ts';
import { publicClient, serviceClient } from '../../_shared/supabase-clients.ts';
import { stripeClient } from '../../_shared/stripe.ts';

const querySchema = z.object({
  email: z.email().max(255),
  session_id: z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/),
});

const refused = () => new HttpError(401, 'Session could not be recovered');

export const recoverSessionRoutes = new Hono();

recoverSessionRoutes.get('/recover-session', async (c) => {
  const parsed = querySchema.safeParse({ email: c.req.query('email'), session_id: c.req.query('session_id') });
  if (!parsed.success) throw refused();
  const email = parsed.data.email.toLowerCase();

  let checkout;
  try {
    checkout = await stripeClient().checkout.sessions.retrieve(parsed.data.session_id);
  } catch {
    throw refused();
  }
  const userId = recoverableUserId(checkout, email, Math.floor(Date.now() / 1000));
  if (!userId) throw refused();

  const admin = serviceClient();
  const { data: found } = await admin.auth.admin.getUserById(userId);
  if (!found.user || found.user.email?.toLowerCase() !== email) throw refused();

  // Single use: the first recovery claims the checkout session.
  const [{ claimed }] = await db()<{ claimed: boolean }[]>`
    select private.claim_checkout_recovery(${checkout.id}, ${userId}::uuid) as claimed`;
  if (!claimed) throw refused();

  const link = await admin.auth.admin.generateLink({ type: 'magiclink', email });
  const tokenHash = link.data.properties?.hashed_token;
  if (link.error || !tokenHash) throw new HttpError(500, 'Could not start a session');
  const { data: verified, error } = await publicClient(callerAddress(c)).auth.verifyOtp({ token_hash: tokenHash, type: 'magiclink' });
  if (error || !verified.session) throw new HttpError(500, 'Could not start a session');

  setSessionCookies(c, verified.session);
  const { access_token, refresh_token, expires_in, expires_at } = verified.session;
  return c.json({ user: await loadAccount(access_token), session: { access_token, refresh_token, expires_in, expires_at } });
});
