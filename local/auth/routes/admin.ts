// The admin API (service_role JWT): users, generated links and invites.
import { randomBytes } from 'node:crypto';
import type { RouteHandler } from '../context.ts';
import { transaction } from '../db.ts';
import { badRequest, notFound, unprocessable } from '../errors.ts';
import { requireAdmin } from '../guard.ts';
import {
  isObject,
  optionalBoolean,
  optionalObject,
  optionalString,
  readJson,
  type JsonObject,
} from '../http.ts';
import { sendJson } from '../../lib/http.ts';
import { checkFrequency, prepareLink, sendLink, type LinkType } from '../links.ts';
import { checkPassword, hashPassword } from '../passwords.ts';
import { resolveRedirect } from '../redirect.ts';
import { parseDuration } from '../settings.ts';
import {
  confirmEmail,
  defaultAud,
  findUserByEmail,
  findUserById,
  insertUser,
  loadUserJson,
  mergeMetadata,
  syncEmailIdentity,
  updateUserColumns,
  userJson,
  type IdentityRow,
  type UserRow,
} from '../users.ts';
import { isUuid, validateEmail } from '../validate.ts';

const emailTaken = () => unprocessable('email_exists', 'A user with this email address has already been registered');

/** ban_duration: "none" lifts a ban, a Go duration ("24h", "30m") sets one. */
function bannedUntil(body: JsonObject): Date | null | undefined {
  const value = optionalString(body, 'ban_duration');
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const seconds = parseDuration(value);
  if (seconds === null)
    throw badRequest('validation_failed', 'invalid format for ban duration: time: invalid duration');
  return new Date(Date.now() + seconds * 1000);
}

function metadata(body: JsonObject, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value))
    throw badRequest('bad_json', `Could not parse request body as JSON: "${key}" must be an object`);
  return value;
}

export const createUser: RouteHandler = async (ctx, req, res) => {
  await requireAdmin(ctx, req);
  const body = await readJson(req);
  const rawEmail = optionalString(body, 'email');
  if (!rawEmail && optionalString(body, 'phone'))
    throw badRequest('phone_provider_disabled', 'Phone users are not supported');
  if (!rawEmail) throw badRequest('validation_failed', 'Cannot create a user without either an email or phone');
  const email = validateEmail(rawEmail);
  const password = optionalString(body, 'password');
  if (password !== undefined) checkPassword(ctx.settings, password);
  const id = optionalString(body, 'id');
  if (id !== undefined && !isUuid(id)) throw badRequest('validation_failed', 'id must be a UUID');
  const role = optionalString(body, 'role');
  const userMetadata = metadata(body, 'user_metadata') ?? metadata(body, 'data') ?? {};
  const appMetadata = metadata(body, 'app_metadata') ?? {};
  const banned = bannedUntil(body);
  const encryptedPassword = password !== undefined ? await hashPassword(ctx.settings, password) : '';
  const user = await transaction(ctx.db, async (db) => {
    if (await findUserByEmail(db, email, true)) throw emailTaken();
    if (id && (await findUserById(db, id))) throw unprocessable('user_already_exists', 'User already registered');
    const created = await insertUser(db, {
      id,
      email,
      encryptedPassword,
      confirmed: optionalBoolean(body, 'email_confirm') === true,
      userMetadata,
      appMetadata,
      role,
      bannedUntil: banned ?? null,
      identityInMetadata: false,
    });
    return loadUserJson(db, created);
  });
  sendJson(res, 200, user);
};

export const listUsers: RouteHandler = async (ctx, req, res, url) => {
  await requireAdmin(ctx, req);
  const page = Number(url.searchParams.get('page') || '1');
  const perPage = Number(url.searchParams.get('per_page') || '50');
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > 1000) {
    throw badRequest('validation_failed', 'Bad Pagination Parameters');
  }
  const count = Number((await ctx.db.query<{ count: string }>('select count(*) from auth.users')).rows[0].count);
  const rows = (
    await ctx.db.query<UserRow>('select * from auth.users order by created_at desc, id limit $1 offset $2', [
      perPage,
      (page - 1) * perPage,
    ])
  ).rows;
  const identities = (
    await ctx.db.query<IdentityRow>(
      'select * from auth.identities where user_id = any($1::uuid[]) order by created_at',
      [rows.map((row) => row.id)],
    )
  ).rows;
  const users = rows.map((row) =>
    userJson(
      row,
      identities.filter((identity) => identity.user_id === row.id),
    ),
  );

  // GoTrue's paging headers; `page` comes first in each link, which supabase-js relies on.
  const totalPages = Math.ceil(count / perPage);
  const links: string[] = [];
  if (totalPages > page) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`</admin/users?page=${totalPages}&per_page=${perPage}>; rel="last"`);
  sendJson(res, 200, { users, aud: defaultAud }, { 'x-total-count': String(count), link: links.join(', ') });
};

async function loadTarget(
  params: Record<string, string>,
  load: (id: string) => Promise<UserRow | null>,
): Promise<UserRow> {
  const id = params.id;
  if (!isUuid(id)) throw notFound('validation_failed', 'user_id must be an UUID');
  const user = await load(id);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

export const getUser: RouteHandler = async (ctx, req, res, _url, params) => {
  await requireAdmin(ctx, req);
  const user = await loadTarget(params, (id) => findUserById(ctx.db, id));
  sendJson(res, 200, await loadUserJson(ctx.db, user));
};

export const updateUser: RouteHandler = async (ctx, req, res, _url, params) => {
  await requireAdmin(ctx, req);
  const body = await readJson(req);
  const rawEmail = optionalString(body, 'email');
  const email = rawEmail ? validateEmail(rawEmail) : undefined;
  const password = optionalString(body, 'password');
  if (password !== undefined) checkPassword(ctx.settings, password);
  if (optionalString(body, 'phone')) throw badRequest('phone_provider_disabled', 'Phone users are not supported');
  const userMetadata = metadata(body, 'user_metadata');
  const appMetadata = metadata(body, 'app_metadata');
  const role = optionalString(body, 'role');
  const emailConfirm = optionalBoolean(body, 'email_confirm');
  const banned = bannedUntil(body);
  const encryptedPassword = password !== undefined ? await hashPassword(ctx.settings, password) : undefined;

  const answer = await transaction(ctx.db, async (db) => {
    let user = await loadTarget(params, (id) => findUserById(db, id, true));
    const columns: Record<string, unknown> = {};
    if (email && email !== user.email) {
      const taken = await findUserByEmail(db, email);
      if (taken && taken.id !== user.id) throw emailTaken();
      columns.email = email;
    }
    if (encryptedPassword !== undefined) columns.encrypted_password = encryptedPassword;
    if (userMetadata) columns.raw_user_meta_data = mergeMetadata(user.raw_user_meta_data, userMetadata);
    if (appMetadata) columns.raw_app_meta_data = mergeMetadata(user.raw_app_meta_data, appMetadata);
    if (role) columns.role = role;
    if (banned !== undefined) columns.banned_until = banned;
    if (Object.keys(columns).length) user = await updateUserColumns(db, user.id, columns);
    if (emailConfirm === true && !user.email_confirmed_at) user = await confirmEmail(db, user);
    if (Object.keys(columns).length || emailConfirm === true) await syncEmailIdentity(db, user);
    return loadUserJson(db, user);
  });
  sendJson(res, 200, answer);
};

export const deleteUser: RouteHandler = async (ctx, req, res, _url, params) => {
  await requireAdmin(ctx, req);
  await readJson(req); // {should_soft_delete}: local users are always removed for good
  const answer = await transaction(ctx.db, async (db) => {
    const user = await loadTarget(params, (id) => findUserById(db, id, true));
    const json = await loadUserJson(db, user);
    await db.query('delete from auth.users where id = $1', [user.id]);
    return json;
  });
  sendJson(res, 200, answer);
};

const linkTypes = ['recovery', 'magiclink', 'signup', 'invite', 'email_change_current', 'email_change_new'];
type GeneratedLinkType = (typeof linkTypes)[number];

export const generateLink: RouteHandler = async (ctx, req, res, url) => {
  await requireAdmin(ctx, req);
  const body = await readJson(req);
  const requested = optionalString(body, 'type') ?? '';
  const email = validateEmail(optionalString(body, 'email'));
  let password = optionalString(body, 'password');
  const data = optionalObject(body, 'data') ?? {};
  const redirectTo = resolveRedirect(
    ctx.settings,
    url.searchParams.get('redirect_to') ?? optionalString(body, 'redirect_to'),
  );

  const answer = await transaction(ctx.db, async (db) => {
    let user = await findUserByEmail(db, email, true);
    let type: GeneratedLinkType = requested;
    if (!user) {
      // A magic link for an unknown address signs the address up (with a random password).
      if (type === 'magiclink') {
        type = 'signup';
        password = randomBytes(32).toString('base64url');
      } else if (type === 'recovery' || type === 'email_change_current' || type === 'email_change_new') {
        throw notFound('user_not_found', 'User with this email not found');
      }
    }
    if (!linkTypes.includes(type))
      throw badRequest('validation_failed', `Invalid email action link type requested: ${type.slice(0, 50)}`);
    let link;
    if (type === 'email_change_current' || type === 'email_change_new') {
      if (!ctx.settings.secureEmailChange && type === 'email_change_current')
        throw badRequest('validation_failed', 'Enable secure email change to generate link for current email');
      const newEmail = validateEmail(optionalString(body, 'new_email'));
      const taken = await findUserByEmail(db, newEmail);
      if (taken && taken.id !== user!.id) throw emailTaken();
      link = await prepareLink(ctx, db, user!, type, redirectTo, newEmail);
    } else {
      if (type === 'signup' || type === 'invite') {
        if (user?.email_confirmed_at) throw emailTaken();
        if (type === 'signup' && !user) {
          if (!password) throw unprocessable('validation_failed', 'Signup requires a valid password');
          checkPassword(ctx.settings, password);
        }
        if (user && type === 'signup')
          user = await updateUserColumns(db, user.id, {
            raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, data),
          });
        user ??= await insertUser(db, {
          email,
          encryptedPassword: password && type === 'signup' ? await hashPassword(ctx.settings, password) : '',
          confirmed: false,
          userMetadata: data,
          appMetadata: {},
          identityInMetadata: false,
        });
      }
      link = await prepareLink(ctx, db, user!, type as LinkType, redirectTo);
    }
    return {
      ...(await loadUserJson(db, link.user)),
      action_link: link.actionLink,
      email_otp: link.otp,
      hashed_token: link.hashedToken,
      redirect_to: link.redirectTo,
      verification_type: type,
    };
  });
  sendJson(res, 200, answer);
};

/** POST /invite: creates the user if needed and mails the invite link. */
export const invite: RouteHandler = async (ctx, req, res, url) => {
  await requireAdmin(ctx, req);
  const body = await readJson(req);
  const email = validateEmail(optionalString(body, 'email'));
  const data = optionalObject(body, 'data') ?? {};
  const redirectTo = resolveRedirect(ctx.settings, url.searchParams.get('redirect_to'));
  const answer = await transaction(ctx.db, async (db) => {
    let user = await findUserByEmail(db, email, true);
    if (user?.email_confirmed_at) throw emailTaken();
    user ??= await insertUser(db, {
      email,
      encryptedPassword: '',
      confirmed: false,
      userMetadata: data,
      appMetadata: {},
      identityInMetadata: false,
    });
    checkFrequency(ctx, user, 'invite');
    const link = await prepareLink(ctx, db, user, 'invite', redirectTo);
    await sendLink(ctx, 'invite', link);
    return loadUserJson(db, link.user);
  });
  sendJson(res, 200, answer);
};
