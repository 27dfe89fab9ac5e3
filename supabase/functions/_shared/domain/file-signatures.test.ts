import { describe, expect, it } from 'vitest';
import { mediaTypeOf } from './file-signatures.ts';

const text = (value: string) => new TextEncoder().encode(value);
const ftyp = (size: number, brand = 'isom') =>
  new Uint8Array([0, 0, 0, size, ...text('ftyp'), ...text(brand), 0, 0, 2, 0, ...text('isom')]);

describe('mediaTypeOf', () => {
  it('names PNG, JPEG and MP4 by their first bytes', () => {
    expect(mediaTypeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe('image/png');
    expect(mediaTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]))).toBe('image/jpeg');
    expect(mediaTypeOf(ftyp(24))).toBe('video/mp4');
  });

  it('knows nothing else, whatever its name or declared type says', () => {
    expect(mediaTypeOf(text('#EXTM3U\n#EXT-X-VERSION:3\n'))).toBeNull();
    expect(mediaTypeOf(text('<!doctype html><script>alert(1)</script>'))).toBeNull();
    expect(mediaTypeOf(text('ffconcat version 1.0\nfile /etc/passwd'))).toBeNull();
    expect(mediaTypeOf(new Uint8Array(0))).toBeNull();
  });

  it('wants a whole ftyp box header, not the word alone', () => {
    expect(mediaTypeOf(ftyp(24).subarray(0, 8))).toBeNull();
    expect(mediaTypeOf(ftyp(4))).toBeNull();
  });
});
