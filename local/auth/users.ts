// auth.users and auth.identities: rows as GoTrue writes them, and the user JSON it answers.
import { randomUUID } from 'node:crypto';
import type { Queryable } from './db.ts';
import type { TokenSubject } from './tokens.ts';

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_token: string | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  email_change_token_new: string | null;
  email_change_token_current: string | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

export const defaultAud = 'authenticated';

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : undefined);

function identityJson(row: IdentityRow): Record<string, unknown> {
  return omitUndefined({
    identity_id: row.id,
    id: row.provider_id,
    user_id: row.user_id,
    identity_data: row.identity_data,
    provider: row.provider,
    last_sign_in_at: iso(row.last_sign_in_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    email: row.email ?? undefined,
  });
}

function omitUndefined(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

/** The user as GoTrue serialises it: unset timestamps are left out, phone is "" when unset. */
export function userJson(user: UserRow, identities: IdentityRow[]): Record<string, unknown> {
  return omitUndefined({
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    invited_at: iso(user.invited_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change ? user.email_change : undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    deleted_at: iso(user.deleted_at),
    is_anonymous: user.is_anonymous,
  });
}

export function tokenSubject(user: UserRow): TokenSubject {
  return {
    id: user.id,
    aud: user.aud || defaultAud,
    role: user.role || defaultAud,
    email: user.email ?? '',
    phone: user.phone ?? '',
    appMetadata: user.raw_app_meta_data ?? {},
    userMetadata: user.raw_user_meta_data ?? {},
    isAnonymous: user.is_anonymous,
  };
}

export function isConfirmed(user: UserRow): boolean {
  return user.email_confirmed_at !== null || user.phone_confirmed_at !== null;
}

export function isBanned(user: UserRow, now = new Date()): boolean {
  return user.banned_until !== null && user.banned_until > now;
}

export async function findUserById(db: Queryable, id: string, lock = false): Promise<UserRow | null> {
  const result = await db.query<UserRow>(`select * from auth.users where id = $1${lock ? ' for update' : ''}`, [id]);
  return result.rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string, lock = false): Promise<UserRow | null> {
  const result = await db.query<UserRow>(
    `select * from auth.users where lower(email) = lower($1) and is_sso_user = false order by created_at limit 1${lock ? ' for update' : ''}`,
    [email],
  );
  return result.rows[0] ?? null;
}

async function findIdentities(db: Queryable, userId: string): Promise<IdentityRow[]> {
  const result = await db.query<IdentityRow>('select * from auth.identities where user_id = $1 order by created_at', [
    userId,
  ]);
  return result.rows;
}

export async function loadUserJson(db: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  return userJson(user, await findIdentities(db, user.id));
}

interface NewUser {
  id?: string;
  email: string;
  encryptedPassword: string;
  confirmed: boolean;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  role?: string;
  confirmationToken?: string;
  bannedUntil?: Date | null;
  /**
   * Whether `user_metadata` starts from the identity's fields (sub, email, email_verified,
   * phone_verified) as on GoTrue's sign-up; the admin paths store exactly what was given.
   */
  identityInMetadata: boolean;
}

/** Inserts the user and its `email` identity, as GoTrue's signup and admin create do. */
export async function insertUser(db: Queryable, input: NewUser): Promise<UserRow> {
  const id = input.id ?? randomUUID();
  const email = input.email.toLowerCase();
  const identityData = { sub: id, email, email_verified: input.confirmed, phone_verified: false };
  const userMetadata: Record<string, unknown> = input.identityInMetadata ? { ...identityData, ...input.userMetadata } : { ...input.userMetadata };
  // GoTrue's confirmation marks the address verified in user_metadata too.
  if (input.confirmed && !input.identityInMetadata) userMetadata.email_verified = true;
  const appMetadata = { provider: 'email', providers: ['email'], ...input.appMetadata };
  const result = await db.query<UserRow>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       confirmation_token, confirmation_sent_at, recovery_token, email_change_token_new, email_change,
       phone_change, phone_change_token, email_change_token_current, reauthentication_token,
       raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at, banned_until, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1::uuid, $2::text, $3::text, $4::text, $5::text, case when $6::boolean then now() end,
       $7::text, case when $7::text <> '' then now() end, '', '', '', '', '', '', '',
       $8::jsonb, $9::jsonb, false, now(), now(), $10::timestamptz, false)
     returning *`,
    [
      id,
      defaultAud,
      input.role ?? defaultAud,
      email,
      input.encryptedPassword,
      input.confirmed,
      input.confirmationToken ?? '',
      appMetadata,
      userMetadata,
      input.bannedUntil ?? null,
    ],
  );
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1::text, $2::uuid, $3::jsonb, 'email', now(), now(), now())`,
    [id, id, identityData],
  );
  return result.rows[0];
}

/** Merges `patch` into a metadata object; keys set to null are removed (GoTrue's behaviour). */
export function mergeMetadata(
  current: Record<string, unknown> | null,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export async function updateUserColumns(db: Queryable, id: string, columns: Record<string, unknown>): Promise<UserRow> {
  const names = Object.keys(columns);
  const sets = names.map((name, index) => `${name} = $${index + 2}`);
  const result = await db.query<UserRow>(
    `update auth.users set ${[...sets, 'updated_at = now()'].join(', ')} where id = $1 returning *`,
    [id, ...names.map((name) => columns[name])],
  );
  return result.rows[0];
}

/**
 * GoTrue's confirmation of an address: `email_confirmed_at` and `email_verified: true` in
 * user_metadata (user.Confirm in GoTrue's models).
 */
export async function confirmEmail(db: Queryable, user: UserRow, extra: Record<string, unknown> = {}): Promise<UserRow> {
  return updateUserColumns(db, user.id, {
    ...extra,
    email_confirmed_at: user.email_confirmed_at ?? new Date(),
    raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, { email_verified: true }),
  });
}

/** Keeps the e-mail identity in step with the user's address and confirmation. */
export async function syncEmailIdentity(db: Queryable, user: UserRow): Promise<void> {
  await db.query(
    `update auth.identities
        set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', $3::boolean), updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [user.id, user.email ?? '', user.email_confirmed_at !== null],
  );
}
