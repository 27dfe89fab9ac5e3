// Apple's artwork rules, read from the image's header: size, squareness and colour space, for
// JPEGs (baseline and progressive, grey, CMYK and Adobe's YCCK) and PNGs of each colour type.
import { describe, expect, it } from 'vitest';
import { jpegBytes, pngBytes } from '../../../../tests/support/media-fixtures.ts';
import { artworkMessages, artworkProblems, readArtworkHeader } from './podcast-artwork.ts';

/** A JPEG's start, an optional Adobe APP14 segment, then a start-of-frame segment (`marker`) of `components`. */
function jpegHead(width: number, height: number, components: number, options: { marker?: number; adobe?: boolean } = {}): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const app14 = options.adobe ? [0xff, 0xee, 0x00, 0x0e, ...Buffer.from('Adobe'), 0, 100, 0, 0, 0, 0, 2] : [];
  const sof = [0xff, options.marker ?? 0xc0, 0x00, 8 + 3 * components, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, components];
  return new Uint8Array([0xff, 0xd8, ...app0, ...app14, ...sof, ...Array(3 * components).fill(0x11)]);
}

/** A PNG's signature and IHDR with this colour type. */
function pngHead(width: number, height: number, colourType: number): Uint8Array {
  const bytes = Buffer.from(pngBytes(1, 1).subarray(0, 33));
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes[25] = colourType;
  return bytes;
}

describe('podcast artwork', () => {
  it('reads a real JPEG and PNG', () => {
    expect(readArtworkHeader(jpegBytes(1400, 1400))).toEqual({ type: 'image/jpeg', width: 1400, height: 1400, colourSpace: 'rgb' });
    expect(readArtworkHeader(pngBytes(40, 30))).toEqual({ type: 'image/png', width: 40, height: 30, colourSpace: 'rgb' });
  });

  it('accepts a square RGB image from 1400 to 3000 pixels, JPEG or PNG', () => {
    for (const head of [jpegHead(1400, 1400, 3), jpegHead(3000, 3000, 3, { marker: 0xc2 }), pngHead(2048, 2048, 6), pngHead(1400, 1400, 3)]) {
      expect(artworkProblems(readArtworkHeader(head))).toEqual([]);
    }
  });

  it('names each problem Apple would refuse, in words', () => {
    expect(artworkProblems(readArtworkHeader(jpegHead(1000, 1000, 3)))).toEqual([artworkMessages.tooSmall(1000, 1000)]);
    expect(artworkProblems(readArtworkHeader(jpegHead(3500, 3500, 3)))).toEqual([artworkMessages.tooLarge(3500, 3500)]);
    expect(artworkProblems(readArtworkHeader(jpegHead(1600, 1500, 3)))).toEqual([artworkMessages.notSquare(1600, 1500)]);
    expect(artworkProblems(readArtworkHeader(jpegHead(1400, 1400, 4)))).toEqual([artworkMessages.colourSpace('cmyk')]);
    expect(artworkProblems(readArtworkHeader(jpegHead(1400, 1400, 4, { adobe: true })))).toEqual([artworkMessages.colourSpace('cmyk')]);
    expect(artworkProblems(readArtworkHeader(jpegHead(1400, 1400, 1)))).toEqual([artworkMessages.colourSpace('grayscale')]);
    expect(artworkProblems(readArtworkHeader(pngHead(1400, 1400, 0)))).toEqual([artworkMessages.colourSpace('grayscale')]);
    expect(artworkProblems(readArtworkHeader(new TextEncoder().encode('<svg></svg>')))).toEqual([artworkMessages.unreadable]);
    // A JPEG whose header ends before its frame is unreadable, not a crash.
    expect(artworkProblems(readArtworkHeader(jpegHead(1400, 1400, 3).subarray(0, 24)))).toEqual([artworkMessages.unreadable]);
    expect(artworkMessages.tooSmall(600, 600)).toBe('Your podcast artwork is 600 x 600 pixels: Apple Podcasts needs at least 1400 x 1400.');
  });
});
