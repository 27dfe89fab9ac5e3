// One-time e-mail tokens: a 6-digit OTP ({{ .Token }}) and its hash sha224(email + otp)
// ({{ .TokenHash }}), stored in auth.users and redeemed by /verify; and the e-mails carrying them.
import type { AuthContext } from './context.ts';
import type { Queryable } from './db.ts';
import { tooManyRequests } from './errors.ts';
import type { MailVariables } from './mail.ts';
import type { TemplateKind } from './settings.ts';
import { newOtp, tokenHash } from './tokens.ts';
import { updateUserColumns, type UserRow } from './users.ts';

export type LinkType =
  | 'recovery'
  | 'magiclink'
  | 'signup'
  | 'invite'
  | 'email_change'
  | 'email_change_current'
  | 'email_change_new';

interface PreparedLink {
  user: UserRow;
  otp: string;
  hashedToken: string;
  actionLink: string;
  redirectTo: string;
  /** Where the token went: the recipient of the e-mail. */
  email: string;
}

const templateOf: Record<LinkType, TemplateKind> = {
  recovery: 'recovery',
  magiclink: 'magic_link',
  signup: 'confirmation',
  invite: 'invite',
  email_change: 'email_change',
  email_change_current: 'email_change',
  email_change_new: 'email_change',
};

const isEmailChange = (type: LinkType) =>
  type === 'email_change' || type === 'email_change_current' || type === 'email_change_new';

function sentAt(user: UserRow, type: LinkType): Date | null {
  if (type === 'recovery' || type === 'magiclink') return user.recovery_sent_at;
  if (isEmailChange(type)) return user.email_change_sent_at;
  return user.confirmation_sent_at;
}

/** GoTrue's max_frequency: one e-mail of a kind per user per interval. */
export function checkSentWithin(ctx: AuthContext, last: Date | null): void {
  if (!last) return;
  const waitMs = last.getTime() + ctx.settings.maxFrequency * 1000 - Date.now();
  if (waitMs > 0) {
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${Math.ceil(waitMs / 1000)} seconds.`,
    );
  }
}

export function checkFrequency(ctx: AuthContext, user: UserRow, type: LinkType): void {
  checkSentWithin(ctx, sentAt(user, type));
}

/** Stores a fresh token for `type` on the user and builds the link that redeems it. */
export async function prepareLink(
  ctx: AuthContext,
  db: Queryable,
  user: UserRow,
  type: LinkType,
  redirectTo: string,
  newEmail?: string,
): Promise<PreparedLink> {
  // The token goes to the new address, except for the link to the current one (secure change).
  const email = isEmailChange(type) && type !== 'email_change_current' && newEmail ? newEmail : (user.email ?? '');
  const otp = newOtp(ctx.settings.otpLength);
  const hashedToken = tokenHash(email, otp);
  const columns: Record<string, unknown> =
    type === 'recovery' || type === 'magiclink'
      ? { recovery_token: hashedToken, recovery_sent_at: new Date() }
      : isEmailChange(type)
        ? {
            email_change: newEmail,
            [type === 'email_change_current' ? 'email_change_token_current' : 'email_change_token_new']: hashedToken,
            email_change_sent_at: new Date(),
          }
        : {
            confirmation_token: hashedToken,
            confirmation_sent_at: new Date(),
            ...(type === 'invite' ? { invited_at: new Date() } : {}),
          };
  const updated = await updateUserColumns(db, user.id, columns);
  const query = new URLSearchParams({ token: hashedToken, type: isEmailChange(type) ? 'email_change' : type, redirect_to: redirectTo });
  return {
    user: updated,
    otp,
    hashedToken,
    actionLink: `${ctx.settings.externalUrl}/verify?${query}`,
    redirectTo,
    email,
  };
}

/** Sends the e-mail for a prepared link, rendered from the configured template. */
export async function sendLink(ctx: AuthContext, type: LinkType, link: PreparedLink): Promise<void> {
  const variables: MailVariables = {
    SiteURL: ctx.settings.siteUrl,
    ConfirmationURL: link.actionLink,
    Token: link.otp,
    TokenHash: link.hashedToken,
    RedirectTo: link.redirectTo,
    Email: link.user.email ?? link.email,
    NewEmail: isEmailChange(type) ? (link.user.email_change ?? link.email) : undefined,
    Data: link.user.raw_user_meta_data ?? {},
  };
  await ctx.mailer.send(templateOf[type], link.email, variables);
}
