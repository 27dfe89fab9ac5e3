// The routes a signed-out or signed-in user calls: /signup, /token, /user, /logout.
import { randomUUID } from 'node:crypto';
import type { RouteHandler } from '../context.ts';
import { transaction } from '../db.ts';
import { AuthError, badRequest, forbidden, unprocessable } from '../errors.ts';
import { isAdminClaims, requireUser } from '../guard.ts';
import { optionalObject, optionalString, readJson } from '../http.ts';
import { sendJson } from '../../lib/http.ts';
import { checkFrequency, checkSentWithin, prepareLink, sendLink } from '../links.ts';
import { checkPassword, dummyHash, hashPassword, passwordMatches } from '../passwords.ts';
import { resolveRedirect } from '../redirect.ts';
import { newOtp, tokenHash } from '../tokens.ts';
import { idTokenGrant, web3Grant } from './disabled.ts';
import { endSessions, refreshSession, startSession, type LogoutScope } from '../sessions.ts';
import {
  defaultAud,
  findUserByEmail,
  insertUser,
  isBanned,
  isConfirmed,
  loadUserJson,
  mergeMetadata,
  syncEmailIdentity,
  updateUserColumns,
} from '../users.ts';
import { validateEmail } from '../validate.ts';

/** GoTrue's answer to a signup for a confirmed address when confirmations are on: no enumeration. */
function obfuscatedUser(email: string): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: defaultAud,
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

export const signup: RouteHandler = async (ctx, req, res, url) => {
  ctx.limit('signInSignUps', req);
  const body = await readJson(req);
  const s = ctx.settings;
  if (!s.enableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  const rawEmail = optionalString(body, 'email');
  const phone = optionalString(body, 'phone');
  const password = optionalString(body, 'password');
  const data = optionalObject(body, 'data') ?? {};
  if (rawEmail && phone)
    throw badRequest('validation_failed', 'Only an email address or phone number should be provided on signup.');
  if (!rawEmail && phone) throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
  if (!s.emailSignupEnabled) throw badRequest('email_provider_disabled', 'Email signups are disabled');
  if (!password) throw unprocessable('validation_failed', 'Signup requires a valid password');
  checkPassword(s, password);
  const email = validateEmail(rawEmail);
  const redirectTo = resolveRedirect(s, url.searchParams.get('redirect_to'));
  const encryptedPassword = await hashPassword(ctx.settings, password);

  const answer = await transaction(ctx.db, async (db) => {
    const existing = await findUserByEmail(db, email, true);
    if (existing && (s.autoconfirm || isConfirmed(existing))) {
      if (s.autoconfirm) throw unprocessable('user_already_exists', 'User already registered');
      return obfuscatedUser(email);
    }
    let user = existing;
    if (user) {
      user = await updateUserColumns(db, user.id, {
        encrypted_password: encryptedPassword,
        raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, data),
      });
    } else {
      user = await insertUser(db, {
        email,
        encryptedPassword,
        confirmed: s.autoconfirm,
        userMetadata: data,
        appMetadata: {},
        identityInMetadata: true,
      });
    }
    if (s.autoconfirm) return startSession(db, s, user, 'password', req);
    checkFrequency(ctx, user, 'signup');
    ctx.limit('emailSent', req);
    const link = await prepareLink(ctx, db, user, 'signup', redirectTo);
    await sendLink(ctx, 'signup', link);
    return loadUserJson(db, link.user);
  });
  sendJson(res, 200, answer);
};

async function passwordGrant(...[ctx, req, res]: Parameters<RouteHandler>): Promise<void> {
  ctx.limit('signInSignUps', req);
  const body = await readJson(req);
  const rawEmail = optionalString(body, 'email');
  const phone = optionalString(body, 'phone');
  const password = optionalString(body, 'password') ?? '';
  if (rawEmail && phone)
    throw badRequest('validation_failed', 'Only an email address or phone number should be provided on login.');
  const invalid = () => badRequest('invalid_credentials', 'Invalid login credentials');
  if (!rawEmail) {
    if (phone) throw invalid();
    throw badRequest('validation_failed', 'missing email or phone');
  }
  if (rawEmail.length > 255) throw invalid();
  const user = await findUserByEmail(ctx.db, rawEmail);
  const matches = await passwordMatches(password, user?.encrypted_password || (await dummyHash(ctx.settings)));
  if (!user || !matches || !user.encrypted_password) throw invalid();
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  if (!isConfirmed(user) && !ctx.settings.autoconfirm) throw badRequest('email_not_confirmed', 'Email not confirmed');
  const session = await transaction(ctx.db, (db) => startSession(db, ctx.settings, user, 'password', req));
  sendJson(res, 200, session);
}

async function refreshGrant(...[ctx, req, res]: Parameters<RouteHandler>): Promise<void> {
  ctx.limit('tokenRefresh', req);
  const body = await readJson(req);
  const token = optionalString(body, 'refresh_token');
  if (!token) throw badRequest('validation_failed', 'refresh_token required');
  if (token.length > 255) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  sendJson(res, 200, await refreshSession(ctx.db, ctx.settings, token, req));
}

export const token: RouteHandler = async (ctx, req, res, url, params) => {
  const grant = url.searchParams.get('grant_type');
  if (grant === 'password') return passwordGrant(ctx, req, res, url, params);
  if (grant === 'refresh_token') return refreshGrant(ctx, req, res, url, params);
  if (grant === 'id_token') return idTokenGrant(ctx, req, res, url, params);
  if (grant === 'web3') return web3Grant(ctx, req, res, url, params);
  throw badRequest('invalid_credentials', 'unsupported_grant_type');
};

/** GET /reauthenticate: mails a one-time code (the nonce PUT /user takes) to the user. */
export const reauthenticate: RouteHandler = async (ctx, req, res) => {
  const { user } = await requireUser(ctx, req);
  if (!user.email)
    throw badRequest('validation_failed', 'Reauthentication requires the user to have an email or a phone number');
  if (!isConfirmed(user)) throw unprocessable('email_not_confirmed', 'Please verify your email first.');
  const { reauthentication_sent_at: lastSent } = (
    await ctx.db.query<{ reauthentication_sent_at: Date | null }>(
      'select reauthentication_sent_at from auth.users where id = $1',
      [user.id],
    )
  ).rows[0];
  checkSentWithin(ctx, lastSent);
  ctx.limit('emailSent', req);
  const otp = newOtp(ctx.settings.otpLength);
  await ctx.db.query(
    'update auth.users set reauthentication_token = $2, reauthentication_sent_at = now() where id = $1',
    [user.id, tokenHash(user.email, otp)],
  );
  await ctx.mailer.send('reauthentication', user.email, {
    SiteURL: ctx.settings.siteUrl,
    ConfirmationURL: '',
    Token: otp,
    TokenHash: tokenHash(user.email, otp),
    RedirectTo: ctx.settings.siteUrl,
    Email: user.email,
    Data: user.raw_user_meta_data ?? {},
  });
  sendJson(res, 200, {});
};

export const getUser: RouteHandler = async (ctx, req, res) => {
  const { user } = await requireUser(ctx, req);
  sendJson(res, 200, await loadUserJson(ctx.db, user));
};

export const updateUser: RouteHandler = async (ctx, req, res, url) => {
  const caller = await requireUser(ctx, req);
  const body = await readJson(req);
  const s = ctx.settings;
  const rawEmail = optionalString(body, 'email');
  const password = optionalString(body, 'password');
  const data = optionalObject(body, 'data');
  const appMetadata = optionalObject(body, 'app_metadata');
  const phone = optionalString(body, 'phone');
  if (appMetadata && !isAdminClaims(caller.claims))
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  if (phone) throw badRequest('phone_provider_disabled', 'Phone updates are disabled');
  if (password !== undefined) checkPassword(s, password);
  const email = rawEmail ? validateEmail(rawEmail) : undefined;
  const encryptedPassword = password !== undefined ? await hashPassword(ctx.settings, password) : undefined;
  if (password !== undefined && (await passwordMatches(password, caller.user.encrypted_password))) {
    throw unprocessable('same_password', 'New password should be different from the old password.');
  }
  const redirectTo = resolveRedirect(s, url.searchParams.get('redirect_to'));

  const answer = await transaction(ctx.db, async (db) => {
    let user = caller.user;
    const columns: Record<string, unknown> = {};
    if (data) columns.raw_user_meta_data = mergeMetadata(user.raw_user_meta_data, data);
    if (appMetadata) columns.raw_app_meta_data = mergeMetadata(user.raw_app_meta_data, appMetadata);
    if (encryptedPassword) columns.encrypted_password = encryptedPassword;
    if (Object.keys(columns).length) user = await updateUserColumns(db, user.id, columns);
    if (encryptedPassword) await endSessions(db, user.id, caller.sessionId, 'others');
    if (email && email !== user.email) {
      const taken = await findUserByEmail(db, email);
      if (taken && taken.id !== user.id)
        throw unprocessable('email_exists', 'A user with this email address has already been registered');
      if (s.autoconfirm) {
        user = await updateUserColumns(db, user.id, {
          email,
          email_confirmed_at: new Date(),
          email_change: '',
          email_change_token_new: '',
        });
        await syncEmailIdentity(db, user);
      } else {
        ctx.limit('emailSent', req);
        const link = await prepareLink(ctx, db, user, 'email_change', redirectTo, email);
        await sendLink(ctx, 'email_change', link);
        user = link.user;
      }
    }
    return loadUserJson(db, user);
  });
  sendJson(res, 200, answer);
};

const scopes: LogoutScope[] = ['global', 'local', 'others'];

export const logout: RouteHandler = async (ctx, req, res, url) => {
  const scope = (url.searchParams.get('scope') ?? 'global') as LogoutScope;
  if (!scopes.includes(scope)) throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
  const caller = await requireUser(ctx, req).catch((error: unknown) => {
    // An already ended session or deleted user has nothing left to sign out.
    if (error instanceof AuthError && (error.code === 'session_not_found' || error.code === 'user_not_found'))
      return null;
    throw error;
  });
  if (caller) await endSessions(ctx.db, caller.user.id, caller.sessionId, scope);
  res.writeHead(204).end();
};
