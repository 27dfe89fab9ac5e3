// Access tokens (ES256 JWTs signed with the current signing key, `kid` in the header; HS256 ones
// with the legacy secret still verify), refresh tokens and e-mail OTPs.
import { createHash, randomInt } from 'node:crypto';
import { SignJWT, createLocalJWKSet, errors as joseErrors, importJWK, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { forbidden } from './errors.ts';
import type { AuthSettings } from './settings.ts';

export interface AmrEntry {
  method: string;
  timestamp: number;
}

export interface AccessTokenClaims extends JWTPayload {
  sub?: string;
  role?: string;
  email?: string;
  phone?: string;
  session_id?: string;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
  aal?: string;
  amr?: AmrEntry[];
  is_anonymous?: boolean;
}

export interface TokenSubject {
  id: string;
  aud: string;
  role: string;
  email: string;
  phone: string;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  isAnonymous: boolean;
}

interface Keys {
  signing: Promise<CryptoKey | Uint8Array>;
  verification: JWTVerifyGetKey;
}

const keysBySettings = new WeakMap<AuthSettings, Keys>();

/** The signing key and a verifier for both kinds of token, built once per settings object. */
function keysOf(settings: AuthSettings): Keys {
  let keys = keysBySettings.get(settings);
  if (!keys) {
    const secret = new TextEncoder().encode(settings.jwtSecret);
    const jwks = createLocalJWKSet(settings.signingKeys.jwks);
    keys = {
      signing: importJWK(settings.signingKeys.current, 'ES256'),
      verification: (header, token) => (header.alg === 'HS256' ? secret : jwks(header, token)),
    };
    keysBySettings.set(settings, keys);
  }
  return keys;
}

export async function signAccessToken(
  settings: AuthSettings,
  user: TokenSubject,
  sessionId: string,
  amr: AmrEntry[],
  now = Math.floor(Date.now() / 1000),
): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = now + settings.jwtExpiry;
  const token = await new SignJWT({
    email: user.email,
    phone: user.phone,
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    role: user.role,
    aal: 'aal1',
    amr,
    session_id: sessionId,
    is_anonymous: user.isAnonymous,
  })
    .setProtectedHeader({ alg: 'ES256', kid: settings.signingKeys.current.kid, typ: 'JWT' })
    .setIssuer(settings.externalUrl)
    .setSubject(user.id)
    .setAudience(user.aud)
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    .sign(await keysOf(settings).signing);
  return { token, expiresAt };
}

/** Verifies a bearer JWT the way GoTrue does; any failure is 403 bad_jwt. */
export async function verifyJwt(settings: AuthSettings, token: string): Promise<AccessTokenClaims> {
  try {
    const { payload } = await jwtVerify<AccessTokenClaims>(token, keysOf(settings).verification, {
      algorithms: ['ES256', 'HS256'],
    });
    return payload;
  } catch (error) {
    const reason =
      error instanceof joseErrors.JWTExpired
        ? 'token has invalid claims: token is expired'
        : error instanceof joseErrors.JWTClaimValidationFailed
          ? `token has invalid claims: ${error.message}`
          : 'signature is invalid';
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** 12 lowercase alphanumerics, as GoTrue's refresh tokens. */
export function newRefreshToken(): string {
  let out = '';
  for (let i = 0; i < 12; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A numeric one-time password of `length` digits. */
export function newOtp(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

/** What GoTrue stores and e-mails as the token hash: hex sha224(email + otp). */
export function tokenHash(email: string, otp: string): string {
  return createHash('sha224')
    .update(email + otp)
    .digest('hex');
}
