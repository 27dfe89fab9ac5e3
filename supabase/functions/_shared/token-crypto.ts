// The functions' side of token encryption at rest (domain-server/token-cipher.ts): the keyring comes
// from the TOKEN_ENCRYPTION_KEYS secret, and a missing or malformed one is a 503.
import { openToken, parseTokenKeyring, sealToken, type TokenKeyring } from './domain-server/token-cipher.ts';
import { settings } from './config.ts';
import { HttpError } from './http-error.ts';

let keyring: Promise<TokenKeyring> | null = null;

function ring(): Promise<TokenKeyring> {
  keyring ??= parseTokenKeyring(settings().tokenEncryptionKeys).catch((error) => {
    keyring = null;
    throw new HttpError(503, (error as Error).message);
  });
  return keyring;
}

export async function currentKeyId(): Promise<string> {
  return (await ring()).currentId;
}

/** Encrypts with the current key; `context` names the row and field (e.g. `<id>:access`). */
export async function encryptSecret(plain: string, context: string): Promise<string> {
  return sealToken(await ring(), plain, context);
}

export async function decryptSecret(sealed: string, keyId: string, context: string): Promise<string> {
  return openToken(await ring(), sealed, keyId, context);
}
