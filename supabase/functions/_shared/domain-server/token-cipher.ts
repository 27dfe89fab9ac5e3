// AES-256-GCM for provider tokens and WordPress application passwords at rest, with a random
// 96-bit IV per value and the row and field as additional data (a value copied to another row
// or field does not decrypt). A keyring is `id:base64key[,id:base64key...]`: the first key
// encrypts, every listed key decrypts, and each row stores its key's id, so keys rotate by
// putting a new one first. Web Crypto only: the Edge Functions and the worker share it.

export interface TokenKeyring {
  currentId: string;
  keys: Map<string, CryptoKey>;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Reads a keyring spec (TOKEN_ENCRYPTION_KEYS); throws with a reason when it is unusable. */
export async function parseTokenKeyring(spec: string): Promise<TokenKeyring> {
  const entries = spec.split(',').map((e) => e.trim()).filter(Boolean);
  if (entries.length === 0) throw new Error('Token encryption is not configured');
  const keys = new Map<string, CryptoKey>();
  for (const entry of entries) {
    const [id, material] = entry.split(':');
    const raw = material ? fromBase64(material) : new Uint8Array();
    if (!id || raw.length !== 32) throw new Error('TOKEN_ENCRYPTION_KEYS entries must be id:base64 of 32 bytes');
    keys.set(id, await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']));
  }
  return { currentId: entries[0].split(':')[0], keys };
}

/** Encrypts with the current key; `context` names the row and field (e.g. `<id>:access`). */
export async function sealToken(ring: TokenKeyring, plain: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(context) },
    ring.keys.get(ring.currentId)!,
    new TextEncoder().encode(plain),
  );
  const out = new Uint8Array(iv.length + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), iv.length);
  return toBase64(out);
}

export async function openToken(ring: TokenKeyring, sealed: string, keyId: string, context: string): Promise<string> {
  const key = ring.keys.get(keyId);
  if (!key) throw new Error(`token key ${keyId} is no longer configured`);
  const bytes = fromBase64(sealed);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: new TextEncoder().encode(context) },
    key,
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
}
