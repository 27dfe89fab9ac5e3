// What a file is, by its first bytes (its "magic number"), never by its name or declared type:
// the brand-asset slots and episode uploads accept only what their bytes say they are.

export type SignedMediaType = 'image/png' | 'image/jpeg' | 'video/mp4';

/** How many leading bytes `mediaTypeOf` needs to decide. */
export const SIGNATURE_BYTES = 16;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
/** An ISO base media file opens with its `ftyp` box: size (4), 'ftyp', major brand, minor version. */
const FTYP_MIN_BOX = 16;

const startsWith = (head: Uint8Array, signature: number[]) => signature.every((value, i) => head[i] === value);

function isMp4(head: Uint8Array): boolean {
  if (head.length < 12) return false;
  const boxSize = ((head[0] << 24) >>> 0) + (head[1] << 16) + (head[2] << 8) + head[3];
  return String.fromCharCode(head[4], head[5], head[6], head[7]) === 'ftyp' && boxSize >= FTYP_MIN_BOX;
}

/** The media type the bytes start as, or null for anything else (a playlist, HTML, a script). */
export function mediaTypeOf(head: Uint8Array): SignedMediaType | null {
  if (startsWith(head, PNG)) return 'image/png';
  if (startsWith(head, JPEG)) return 'image/jpeg';
  if (isMp4(head)) return 'video/mp4';
  return null;
}
