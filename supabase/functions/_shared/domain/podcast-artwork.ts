// Podcast artwork as Apple Podcasts accepts it (its "A Podcaster's Guide to RSS", itunes:image):
// JPEG or PNG, square, 1400 x 1400 to 3000 x 3000 pixels, in the RGB colour space. The size and
// colour space are read from the image's header (a JPEG's SOFn segment and Adobe marker, a PNG's
// IHDR chunk), so nothing is decoded; the problems are words for the subscriber.

export const ARTWORK_MIN_PIXELS = 1400;
export const ARTWORK_MAX_PIXELS = 3000;

export type ArtworkColourSpace = 'rgb' | 'grayscale' | 'cmyk';

export interface ArtworkHeader {
  type: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  colourSpace: ArtworkColourSpace;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16 = (bytes: Uint8Array, at: number) => (bytes[at] << 8) | bytes[at + 1];
const u32 = (bytes: Uint8Array, at: number) => ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];

function pngHeader(bytes: Uint8Array): ArtworkHeader | null {
  // Signature (8), IHDR's length (4) and type (4), then width, height, bit depth, colour type.
  if (bytes.length < 26 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  const colourType = bytes[25];
  // 0 and 4 are grey (with alpha); 2 and 6 RGB (with alpha); 3 an RGB palette.
  const colourSpace: ArtworkColourSpace = colourType === 0 || colourType === 4 ? 'grayscale' : 'rgb';
  return { type: 'image/png', width: u32(bytes, 16), height: u32(bytes, 20), colourSpace };
}

/** SOF0-SOF15 carry the frame's size; C4 (DHT), C8 (JPG) and CC (DAC) share the range and do not. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

function jpegHeader(bytes: Uint8Array): ArtworkHeader | null {
  let at = 2;
  let adobe = false;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    // Fill bytes, and markers that carry no length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    const length = u16(bytes, at + 2);
    if (marker === 0xee && String.fromCharCode(...bytes.subarray(at + 4, at + 9)) === 'Adobe') adobe = true;
    if (isStartOfFrame(marker)) {
      if (at + 10 > bytes.length) return null;
      const components = bytes[at + 9];
      // One component is grey; four are CMYK (or YCCK, Adobe's transform of it); three are RGB
      // (YCbCr is how a JPEG stores RGB).
      const colourSpace: ArtworkColourSpace = components === 1 ? 'grayscale' : components === 4 || (adobe && components !== 3) ? 'cmyk' : 'rgb';
      return { type: 'image/jpeg', width: u16(bytes, at + 7), height: u16(bytes, at + 5), colourSpace };
    }
    at += 2 + length;
  }
  return null;
}

/** The image's type, size and colour space, or null when it is no JPEG or PNG this can read. */
export function readArtworkHeader(bytes: Uint8Array): ArtworkHeader | null {
  if (PNG_SIGNATURE.every((value, i) => bytes[i] === value)) return pngHeader(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegHeader(bytes);
  return null;
}

export const artworkMessages = {
  missing: 'Your podcast has no artwork yet: Apple Podcasts requires it.',
  unreadable: 'Your podcast artwork is not a JPG or PNG image Apple Podcasts can read.',
  notSquare: (width: number, height: number) => `Your podcast artwork is ${width} x ${height} pixels: Apple Podcasts needs a square image.`,
  tooSmall: (width: number, height: number) =>
    `Your podcast artwork is ${width} x ${height} pixels: Apple Podcasts needs at least ${ARTWORK_MIN_PIXELS} x ${ARTWORK_MIN_PIXELS}.`,
  tooLarge: (width: number, height: number) =>
    `Your podcast artwork is ${width} x ${height} pixels: Apple Podcasts accepts at most ${ARTWORK_MAX_PIXELS} x ${ARTWORK_MAX_PIXELS}.`,
  colourSpace: (space: Exclude<ArtworkColourSpace, 'rgb'>) =>
    `Your podcast artwork is in ${space === 'cmyk' ? 'CMYK' : 'grayscale'} colours: Apple Podcasts needs RGB.`,
} as const;

/** What Apple Podcasts would refuse in this artwork, in words; empty when it would accept it. */
export function artworkProblems(header: ArtworkHeader | null): string[] {
  if (!header) return [artworkMessages.unreadable];
  const { width, height, colourSpace } = header;
  const problems: string[] = [];
  if (width !== height) problems.push(artworkMessages.notSquare(width, height));
  if (Math.min(width, height) < ARTWORK_MIN_PIXELS) problems.push(artworkMessages.tooSmall(width, height));
  else if (Math.max(width, height) > ARTWORK_MAX_PIXELS) problems.push(artworkMessages.tooLarge(width, height));
  if (colourSpace !== 'rgb') problems.push(artworkMessages.colourSpace(colourSpace));
  return problems;
}
