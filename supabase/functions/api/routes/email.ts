// The e-mails' unsubscribe link (issue 43, item 1). The link is signed (EMAIL_UNSUBSCRIBE_SECRET):
// it names the account and one kind of e-mail, and needs no session, as a mail client's one-click
// POST (RFC 8058, the List-Unsubscribe-Post header) carries none.
//   GET  /api/email/unsubscribe?token=   the link opened in a browser: to the /unsubscribe page, which asks first
//   POST /api/email/unsubscribe?token=   unsubscribes: 200 {kind, message}; 400 a link that is not valid
import { Hono } from 'hono';
import { settings } from '../../_shared/config.ts';
import { databaseError, type DatabaseError } from '../../_shared/database-errors.ts';
import { db } from '../../_shared/db.ts';
import { UNSUBSCRIBE_TOKEN_PARAM, unsubscribedMessage } from '../../_shared/domain/email.ts';
import { verifyUnsubscribeToken } from '../../_shared/domain-server/email-outbox.ts';
import { HttpError } from '../../_shared/http-error.ts';

export const emailRoutes = new Hono();

const INVALID_LINK = 'This unsubscribe link is not valid. Use the link in the newest e-mail from Castloop.';

emailRoutes.get('/email/unsubscribe', (c) => {
  const token = c.req.query(UNSUBSCRIBE_TOKEN_PARAM) ?? '';
  return c.redirect(`${settings().siteUrl}/unsubscribe?${new URLSearchParams({ [UNSUBSCRIBE_TOKEN_PARAM]: token })}`, 303);
});

emailRoutes.post('/email/unsubscribe', async (c) => {
  const secret = settings().email.unsubscribeSecret;
  if (!secret) throw new HttpError(503, 'Unsubscribing is not configured (EMAIL_UNSUBSCRIBE_SECRET)');
  const token = c.req.query(UNSUBSCRIBE_TOKEN_PARAM) ?? '';
  const claim = token.length <= 1000 ? await verifyUnsubscribeToken(secret, token) : null;
  if (!claim) throw new HttpError(400, INVALID_LINK);
  let allowed: boolean;
  try {
    [{ allowed }] = await db()<{ allowed: boolean }[]>`select private.email_unsubscribe(${claim.userId}::uuid, ${claim.kind}) as allowed`;
  } catch (error) {
    throw databaseError(error as DatabaseError, 'Could not unsubscribe');
  }
  if (!allowed) throw new HttpError(400, INVALID_LINK);
  return c.json({ kind: claim.kind, message: unsubscribedMessage(claim.kind) });
});
