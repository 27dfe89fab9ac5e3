// The asymmetric keys local Auth signs sessions with, as the Supabase CLI's signing_keys.json: a
// JSON array of private JWKs whose first entry signs. From SUPABASE_JWT_SIGNING_KEYS when .env
// sets it, otherwise from the data directory, generated there (ES256, P-256) on first start.
// The legacy SUPABASE_JWT_SECRET still verifies HS256 tokens (the anon and service keys).
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StackConfig } from '../config.ts';

interface PrivateJwk {
  kty: 'EC';
  crv: 'P-256';
  alg: 'ES256';
  kid: string;
  x: string;
  y: string;
  d: string;
  [extra: string]: unknown;
}

/** A public key as GoTrue's /.well-known/jwks.json lists it. */
type PublicJwk = Pick<PrivateJwk, 'kty' | 'crv' | 'alg' | 'kid' | 'x' | 'y'> & { use: 'sig'; key_ops: ['verify']; ext: true };

interface Jwks<K = PublicJwk> {
  keys: K[];
}

export interface SigningKeys {
  /** The key new sessions are signed with. */
  current: PrivateJwk;
  /** Every configured key's public half: what /auth/v1/.well-known/jwks.json serves. */
  jwks: Jwks;
}

const signingKeysFile = (config: StackConfig) => path.join(config.dataDir, 'signing_keys.json');

function isPrivateJwk(value: unknown): value is PrivateJwk {
  const key = value as Partial<PrivateJwk> | null;
  return (
    typeof key === 'object' && key !== null && key.kty === 'EC' && key.crv === 'P-256' &&
    typeof key.kid === 'string' && key.kid !== '' && typeof key.x === 'string' && typeof key.y === 'string' && typeof key.d === 'string'
  );
}

function parseKeys(text: string, source: string): PrivateJwk[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not JSON: expected an array of EC P-256 private JWKs with a kid`);
  }
  const keys = Array.isArray(parsed) ? parsed : [parsed];
  if (keys.length === 0 || !keys.every(isPrivateJwk))
    throw new Error(`${source} must hold EC P-256 private JWKs (kty, crv, kid, x, y, d); only ES256 is supported`);
  return keys.map((key) => ({ ...key, alg: 'ES256' }));
}

function generateSigningKey(): PrivateJwk {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  return { kty: 'EC', crv: 'P-256', alg: 'ES256', kid: randomUUID(), x: jwk.x!, y: jwk.y!, d: jwk.d! };
}

function publicJwk(key: PrivateJwk): PublicJwk {
  return { kty: 'EC', crv: 'P-256', alg: 'ES256', kid: key.kid, x: key.x, y: key.y, use: 'sig', key_ops: ['verify'], ext: true };
}

/** Reads the configured keys, generating the data directory's key file when there is none. */
export function loadSigningKeys(config: StackConfig): SigningKeys {
  const configured = config.env.SUPABASE_JWT_SIGNING_KEYS?.trim();
  let keys: PrivateJwk[];
  if (configured) {
    keys = parseKeys(configured, 'SUPABASE_JWT_SIGNING_KEYS');
  } else {
    const file = signingKeysFile(config);
    if (!existsSync(file)) {
      mkdirSync(config.dataDir, { recursive: true });
      // `wx`: when two parts of the stack start at once, the first file written wins.
      try {
        writeFileSync(file, `${JSON.stringify([generateSigningKey()], null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    keys = parseKeys(readFileSync(file, 'utf8'), file);
  }
  return { current: keys[0], jwks: { keys: keys.map(publicJwk) } };
}

/** Every key that verifies a token of this stack, the legacy secret as an `oct` key: for verifiers
 * that take one key set (PostgREST). Never served: it holds the secret. */
export function verificationJwks(config: StackConfig): Jwks<PublicJwk | { kty: 'oct'; alg: 'HS256'; k: string }> {
  const secret = { kty: 'oct' as const, alg: 'HS256' as const, k: Buffer.from(config.jwtSecret, 'utf8').toString('base64url') };
  return { keys: [...loadSigningKeys(config).jwks.keys, secret] };
}
