// Caller identity from the `Authorization: Bearer` JWT (ES256 from Auth's JWKS, or HS256 with the
// legacy secret, as Supabase Storage's JWKS support), and signed-URL tokens (HS256, the secret).
import type { IncomingMessage } from 'node:http';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, SignJWT, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { errors } from './errors.ts';

export type DbRole = 'anon' | 'authenticated' | 'service_role';
const dbRoles = new Set<string>(['anon', 'authenticated', 'service_role']);
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Caller {
  role: DbRole;
  claims: JWTPayload & Record<string, unknown>;
  /** The `sub` claim, when there is one (signed-in users). */
  sub: string | null;
}

/** Turns a jose failure into the message Supabase Storage (jsonwebtoken) answers with. */
function jwtMessage(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'jwt expired';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'invalid signature';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `jwt ${error.claim} invalid`;
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'invalid algorithm';
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'no matching key found in JWKS';
  return 'jwt malformed';
}

export class Tokens {
  private readonly key: Uint8Array;
  private readonly verificationKey: JWTVerifyGetKey;

  constructor(secret: string, jwks: JSONWebKeySet) {
    this.key = new TextEncoder().encode(secret);
    const publicKeys = createLocalJWKSet(jwks);
    this.verificationKey = (header, token) => (header.alg === 'HS256' ? this.key : publicKeys(header, token));
  }

  /** A caller's JWT; `signedUrl` tokens are this service's own, signed with the secret only. */
  async verify(token: string, signedUrl = false): Promise<JWTPayload & Record<string, unknown>> {
    try {
      const { payload } = signedUrl
        ? await jwtVerify(token, this.key, { algorithms: ['HS256'] })
        : await jwtVerify(token, this.verificationKey, { algorithms: ['ES256', 'HS256'] });
      return payload as JWTPayload & Record<string, unknown>;
    } catch (error) {
      throw errors.invalidJwt(jwtMessage(error));
    }
  }

  /** The caller of a request; throws a StorageError when the header is missing or the JWT bad. */
  async caller(req: IncomingMessage): Promise<Caller> {
    const header = req.headers.authorization;
    if (!header) throw errors.missingAuth();
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (!match) throw errors.invalidJwt('jwt malformed');
    const claims = await this.verify(match[1]);
    const role = typeof claims.role === 'string' ? claims.role : 'anon';
    if (!dbRoles.has(role)) throw errors.accessDenied(`role "${role}" is not allowed`);
    const sub = typeof claims.sub === 'string' ? claims.sub : null;
    // Objects record their owner as a uuid (auth.users.id); any other subject owns nothing.
    if (sub !== null && !uuidPattern.test(sub)) throw errors.invalidJwt('jwt sub must be a user id (uuid)');
    return { role: role as DbRole, claims, sub };
  }

  /** A token for one object and one operation: `{url: "bucket/path", scope, iat, exp, ...extra}`. */
  async signObjectUrl(
    url: string,
    scope: 'download' | 'upload',
    expiresInSeconds: number,
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ...extra, url, scope })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + Math.max(1, Math.floor(expiresInSeconds)))
      .sign(this.key);
  }

  /** Checks a signed-URL token is valid, unexpired, for this object and this operation. */
  async verifyObjectUrl(token: string | null, url: string, scope: 'download' | 'upload'): Promise<JWTPayload & Record<string, unknown>> {
    if (!token) throw errors.invalidRequest('Missing token');
    const payload = await this.verify(token, true);
    if (payload.url !== url) throw errors.invalidSignature('Invalid signature');
    // Tokens without a scope are download tokens (as Supabase's); an upload token also carries one.
    const tokenScope = typeof payload.scope === 'string' ? payload.scope : 'download';
    if (tokenScope !== scope) throw errors.invalidSignature('Invalid signature');
    return payload;
  }
}
