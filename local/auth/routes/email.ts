// E-mail flows: /recover, /otp and /magiclink send links; /verify redeems them.
import type { IncomingMessage } from 'node:http';
import type { AuthContext, RouteHandler } from '../context.ts';
import { transaction, type Queryable } from '../db.ts';
import { AuthError, badRequest, forbidden, unprocessable } from '../errors.ts';
import { optionalBoolean, optionalObject, optionalString, readJson } from '../http.ts';
import { redirect, sendJson } from '../../lib/http.ts';
import { checkFrequency, prepareLink, sendLink, type LinkType } from '../links.ts';
import { resolveRedirect } from '../redirect.ts';
import { startSession, type AuthMethod, type SessionResponse } from '../sessions.ts';
import { tokenHash } from '../tokens.ts';
import {
  confirmEmail,
  findUserByEmail,
  insertUser,
  isBanned,
  isConfirmed,
  syncEmailIdentity,
  updateUserColumns,
  type UserRow,
} from '../users.ts';
import { validateEmail } from '../validate.ts';

export const recover: RouteHandler = async (ctx, req, res, url) => {
  const body = await readJson(req);
  const email = validateEmail(optionalString(body, 'email'));
  const redirectTo = resolveRedirect(ctx.settings, url.searchParams.get('redirect_to'));
  // GoTrue's per-address limit for the route (RATE_LIMIT_OTP), counted alike for known and
  // unknown addresses; the project-wide e-mail limit only when an e-mail goes out.
  ctx.limit('recover', req);
  await transaction(ctx.db, async (db) => {
    const user = await findUserByEmail(db, email, true);
    // Unknown addresses get the same answer: no account enumeration.
    if (!user) return;
    checkFrequency(ctx, user, 'recovery');
    ctx.limit('emailSent', req);
    const link = await prepareLink(ctx, db, user, 'recovery', redirectTo);
    await sendLink(ctx, 'recovery', link);
  });
  sendJson(res, 200, {});
};

/** POST /otp and POST /magiclink: a magic link (or, for a new address, a confirmation link). */
export const otp: RouteHandler = async (ctx, req, res, url) => {
  const body = await readJson(req);
  if (optionalString(body, 'phone')) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
  const email = validateEmail(optionalString(body, 'email'));
  const createUser = optionalBoolean(body, 'create_user') ?? true;
  const data = optionalObject(body, 'data') ?? {};
  const redirectTo = resolveRedirect(ctx.settings, url.searchParams.get('redirect_to'));
  ctx.limit(/\/magiclink\/?$/.test(url.pathname) ? 'magicLink' : 'otp', req);
  await transaction(ctx.db, async (db) => {
    let user = await findUserByEmail(db, email, true);
    if (!user) {
      if (!createUser || !ctx.settings.enableSignup) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
      user = await insertUser(db, {
        email,
        encryptedPassword: '',
        confirmed: ctx.settings.autoconfirm,
        userMetadata: data,
        appMetadata: {},
        identityInMetadata: true,
      });
    }
    const type: LinkType = isConfirmed(user) ? 'magiclink' : 'signup';
    checkFrequency(ctx, user, type);
    ctx.limit('emailSent', req);
    const link = await prepareLink(ctx, db, user, type, redirectTo);
    await sendLink(ctx, type, link);
  });
  sendJson(res, 200, {});
};

const resendTypes = ['signup', 'email_change', 'sms', 'phone_change'];

/**
 * POST /resend: the signup confirmation or the e-mail change link again. Unknown addresses,
 * confirmed users and users without a pending change get the same empty answer.
 */
export const resend: RouteHandler = async (ctx, req, res, url) => {
  const body = await readJson(req);
  const type = optionalString(body, 'type') ?? '';
  const rawEmail = optionalString(body, 'email');
  const phone = optionalString(body, 'phone');
  if (!resendTypes.includes(type))
    throw badRequest('validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change');
  if (!rawEmail && type === 'signup') throw badRequest('validation_failed', 'Type provided requires an email address');
  if (!phone && type === 'sms') throw badRequest('validation_failed', 'Type provided requires a phone number');
  if (rawEmail && phone)
    throw badRequest('validation_failed', 'Only an email address or phone number should be provided.');
  if (!rawEmail && !phone) throw badRequest('validation_failed', 'Missing email address or phone number');
  if (phone) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  const email = validateEmail(rawEmail);
  const redirectTo = resolveRedirect(ctx.settings, url.searchParams.get('redirect_to'));
  ctx.limit('resend', req);
  await transaction(ctx.db, async (db) => {
    const user = await findUserByEmail(db, email, true);
    if (!user) return;
    if (type === 'signup' && !isConfirmed(user)) {
      checkFrequency(ctx, user, 'signup');
      ctx.limit('emailSent', req);
      await sendLink(ctx, 'signup', await prepareLink(ctx, db, user, 'signup', redirectTo));
    } else if (type === 'email_change' && user.email_change) {
      checkFrequency(ctx, user, 'email_change');
      ctx.limit('emailSent', req);
      const link = await prepareLink(ctx, db, user, 'email_change', redirectTo, user.email_change);
      await sendLink(ctx, 'email_change', link);
    }
  });
  sendJson(res, 200, {});
};

type VerifyType = 'signup' | 'invite' | 'recovery' | 'magiclink' | 'email' | 'email_change';
const verifyTypes: VerifyType[] = ['signup', 'invite', 'recovery', 'magiclink', 'email', 'email_change'];

interface VerifyParams {
  type: VerifyType;
  tokenHash?: string;
  token?: string;
  email?: string;
}

const invalidToken = () => forbidden('otp_expired', 'Token has expired or is invalid');

type Candidate = { column: keyof UserRow; sentAt: keyof UserRow; as: Exclude<VerifyType, 'email'> };

/** Which stored token columns a verification type may match, with their sent-at column. */
function candidates(type: VerifyType): Candidate[] {
  const confirmation = { column: 'confirmation_token', sentAt: 'confirmation_sent_at' } as const;
  const recovery = { column: 'recovery_token', sentAt: 'recovery_sent_at' } as const;
  switch (type) {
    case 'signup':
    case 'invite':
      return [{ ...confirmation, as: type }];
    case 'recovery':
    case 'magiclink':
      return [{ ...recovery, as: type }];
    case 'email_change':
      // The link to the new address, or (secure e-mail change) the one to the current address.
      return [
        { column: 'email_change_token_new', sentAt: 'email_change_sent_at', as: 'email_change' },
        { column: 'email_change_token_current', sentAt: 'email_change_sent_at', as: 'email_change' },
      ];
    case 'email':
      return [
        { ...confirmation, as: 'signup' },
        { ...recovery, as: 'magiclink' },
      ];
  }
}

/** GoTrue's answer when the first of the two e-mail change links (secure e-mail change) is used. */
export const singleConfirmationAccepted =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

async function redeem(
  ctx: AuthContext,
  db: Queryable,
  params: VerifyParams,
  req: IncomingMessage,
): Promise<SessionResponse | typeof singleConfirmationAccepted> {
  const options = candidates(params.type);
  let user: UserRow | null;
  let hashFor: (option: Candidate) => string;
  if (params.tokenHash) {
    const hash = params.tokenHash.toLowerCase();
    if (!/^[0-9a-f]{56}$/.test(hash)) throw invalidToken();
    const where = options.map((option) => `${option.column} = $1`).join(' or ');
    const found = await db.query<UserRow>(`select * from auth.users where ${where} limit 1 for update`, [hash]);
    user = found.rows[0] ?? null;
    hashFor = () => hash;
  } else {
    const email = validateEmail(params.email);
    user = await findUserByEmail(db, email, true);
    const newEmail = user?.email_change || email;
    // An OTP sent to the new address is hashed with that address.
    hashFor = (option) => tokenHash(option.column === 'email_change_token_new' ? newEmail : email, params.token ?? '');
  }
  const stored = user;
  const match = stored ? options.find((option) => stored[option.column] === hashFor(option)) : undefined;
  if (!user || !match) throw invalidToken();
  const sent = user[match.sentAt] as Date | null;
  if (!sent || sent.getTime() + ctx.settings.otpExpiry * 1000 < Date.now()) throw invalidToken();
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');

  if (match.as === 'email_change' && ctx.settings.secureEmailChange && !ctx.settings.autoconfirm) {
    const other = match.column === 'email_change_token_new' ? 'email_change_token_current' : 'email_change_token_new';
    if (user[other]) {
      await updateUserColumns(db, user.id, { [match.column]: '' });
      return singleConfirmationAccepted;
    }
  }

  let method: AuthMethod;
  const confirm = (row: UserRow, extra: Record<string, unknown>) =>
    row.email_confirmed_at ? updateUserColumns(db, row.id, extra) : confirmEmail(db, row, extra);
  switch (match.as) {
    case 'signup':
    case 'invite':
      user = await confirm(user, { confirmation_token: '' });
      method = params.type === 'email' ? 'otp' : match.as === 'invite' ? 'invite' : 'email/signup';
      break;
    case 'recovery':
    case 'magiclink':
      user = await confirm(user, { recovery_token: '' });
      method = params.type === 'email' ? 'otp' : match.as;
      break;
    case 'email_change': {
      const taken = await findUserByEmail(db, user.email_change ?? '');
      if (taken && taken.id !== user.id)
        throw unprocessable('email_exists', 'A user with this email address has already been registered');
      user = await updateUserColumns(db, user.id, {
        email: user.email_change,
        email_change: '',
        email_change_token_new: '',
        email_change_token_current: '',
        email_confirmed_at: new Date(),
      });
      method = 'email_change';
      break;
    }
  }
  await syncEmailIdentity(db, user);
  return startSession(db, ctx.settings, user, method, req);
}

function parseVerifyParams(
  type: string | undefined,
  tokenHashValue: string | undefined,
  token: string | undefined,
  email: string | undefined,
): VerifyParams {
  if (!type) throw badRequest('validation_failed', 'Verify requires a verification type');
  if (!verifyTypes.includes(type as VerifyType))
    throw badRequest('validation_failed', `Unsupported verification type "${type.slice(0, 50)}"`);
  if (!tokenHashValue && !token)
    throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
  if (tokenHashValue && token)
    throw badRequest('validation_failed', 'Verify requires either a token or a token hash, not both');
  if (token && !email) throw badRequest('validation_failed', 'Verify requires an email address when a token is given');
  if ((tokenHashValue?.length ?? 0) > 255 || (token?.length ?? 0) > 255)
    throw forbidden('otp_expired', 'Token has expired or is invalid');
  return { type: type as VerifyType, tokenHash: tokenHashValue, token, email };
}

export const verifyPost: RouteHandler = async (ctx, req, res) => {
  ctx.limit('tokenVerifications', req);
  const body = await readJson(req);
  const params = parseVerifyParams(
    optionalString(body, 'type'),
    optionalString(body, 'token_hash'),
    optionalString(body, 'token'),
    optionalString(body, 'email'),
  );
  const result = await transaction(ctx.db, (db) => redeem(ctx, db, params, req));
  if (result === singleConfirmationAccepted) sendJson(res, 200, { msg: result, code: '200' });
  else sendJson(res, 200, result);
};

/** The link in an e-mail: 303 to redirect_to with the session (or the error) in the fragment. */
export const verifyGet: RouteHandler = async (ctx, req, res, url) => {
  const target = resolveRedirect(ctx.settings, url.searchParams.get('redirect_to'));
  const withFragment = (values: Record<string, string>) => {
    const base = target.split('#')[0];
    return `${base}#${new URLSearchParams(values)}`;
  };
  try {
    ctx.limit('tokenVerifications', req);
    const type = url.searchParams.get('type') ?? undefined;
    // The link carries the hashed token in `token`.
    const params = parseVerifyParams(type, url.searchParams.get('token') ?? undefined, undefined, undefined);
    const session = await transaction(ctx.db, (db) => redeem(ctx, db, params, req));
    if (session === singleConfirmationAccepted) {
      redirect(res, withFragment({ message: session }));
      return;
    }
    redirect(
      res,
      withFragment({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: session.token_type,
        type: params.type,
      }),
    );
  } catch (error) {
    if (!(error instanceof AuthError) || error.status >= 500) throw error;
    const expired = error.code === 'otp_expired';
    redirect(
      res,
      withFragment({
        error: error.status === 429 ? 'too_many_requests' : expired ? 'access_denied' : 'invalid_request',
        error_code: error.code,
        error_description: expired ? 'Email link is invalid or has expired' : error.message,
      }),
    );
  }
};
