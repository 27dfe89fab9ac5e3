// Session recovery after checkout (spec section 4), made safe (docs/security.md): the
// caller must present a completed, paid, recent checkout session whose customer e-mail matches,
// and each checkout session works once. An e-mail address alone never yields a session.
// A POST (issue 23, item 14): it sets the session cookies, so a cross-site navigation (a GET)
// must not reach it, and app.ts refuses a POST from another site. Every return claims the
// checkout session (item 13): signed in, or signed out without the e-mail (204, no session), so
// it never stays usable as a login behind the person's back.
import { Hono } from 'hono';
import { z } from 'zod';
import { db } from '../../_shared/db.ts';
import { checkoutUserId, recoverableUserId } from '../../_shared/domain-server/checkout-recovery.ts';
import { HttpError, parseJsonBody } from '../../_shared/http-error.ts';
import { accessTokenOf, callerAddress, loadAccount, requireCaller, setSessionCookies } from '../../_shared/session.ts';
import { publicClient, serviceClient } from '../../_shared/supabase-clients.ts';
import { stripeClient } from '../../_shared/stripe.ts';

const sessionIdSchema = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/);
// Signed out, the e-mail proves who returns; signed in, the session does.
const bodySchema = z.object({ email: z.email().max(255).optional(), session_id: sessionIdSchema });

const refused = () => new HttpError(401, 'Session could not be recovered');

/** Uses up the checkout session; true only the first time and while the account's credentials and sessions are unchanged since it was made. */
async function claim(checkoutSessionId: string, userId: string, createdSeconds: number): Promise<boolean> {
  const [{ claimed }] = await db()<{ claimed: boolean }[]>`
    select private.claim_checkout_recovery(${checkoutSessionId}, ${userId}::uuid, to_timestamp(${createdSeconds})) as claimed`;
  return claimed;
}

export const recoverSessionRoutes = new Hono();

// The spec's documented GET (query: email) became this POST: a client still sending it learns the
// request to send instead of a 404 (issue 39, item 10).
recoverSessionRoutes.get('/recover-session', (c) =>
  c.json({ message: 'Use POST /api/auth/recover-session with a JSON body {"email", "session_id"} (the checkout session id).' }, 405, { Allow: 'POST' }),
);

recoverSessionRoutes.post('/recover-session', async (c) => {
  const parsed = bodySchema.safeParse(await parseJsonBody(c.req.raw, z.unknown()));
  if (!parsed.success) throw refused();
  const caller = accessTokenOf(c) ? await requireCaller(c) : null;

  let checkout;
  try {
    checkout = await stripeClient().checkout.sessions.retrieve(parsed.data.session_id);
  } catch {
    throw refused();
  }

  if (caller) {
    // Back signed in: nothing to recover, only the checkout session to use up.
    if (checkoutUserId(checkout) !== caller.userId) throw refused();
    await claim(checkout.id, caller.userId, checkout.created);
    return c.body(null, 204);
  }

  const admin = serviceClient().auth.admin;
  const email = parsed.data.email?.toLowerCase();
  if (!email) {
    // Back signed out with no e-mail to prove who returns: nothing to recover, but the id is
    // used up all the same, so it stops being a login wherever else it was seen.
    const ownerId = z.uuid().safeParse(checkoutUserId(checkout)).data;
    const { data: owner } = ownerId ? await admin.getUserById(ownerId) : { data: { user: null } };
    if (!ownerId || !owner.user) throw refused();
    await claim(checkout.id, ownerId, checkout.created);
    return c.body(null, 204);
  }
  const userId = recoverableUserId(checkout, email, Math.floor(Date.now() / 1000));
  if (!userId) throw refused();

  const { data: found } = await admin.getUserById(userId);
  if (!found.user || found.user.email?.toLowerCase() !== email) throw refused();

  if (!(await claim(checkout.id, userId, checkout.created))) throw refused();

  const link = await admin.generateLink({ type: 'magiclink', email });
  const tokenHash = link.data.properties?.hashed_token;
  if (link.error || !tokenHash) throw new HttpError(500, 'Could not start a session');
  const { data: verified, error } = await publicClient(callerAddress(c)).auth.verifyOtp({ token_hash: tokenHash, type: 'magiclink' });
  if (error || !verified.session) throw new HttpError(500, 'Could not start a session');

  setSessionCookies(c, verified.session);
  const { access_token, refresh_token, expires_in, expires_at } = verified.session;
  return c.json({ user: await loadAccount(access_token), session: { access_token, refresh_token, expires_in, expires_at } });
});
