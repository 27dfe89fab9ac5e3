// The configuration form's rules: required-field counting per mode, colour normalisation, the
// timezone list, and the file type, shape and content checks (with the MP4 reader on generated files).
import {
  contentMatchesType,
  fileShapeProblem,
  fileTypeProblem,
  missingRequiredFields,
  normalizeHexColor,
  onboardingFieldsSchema,
  requiredFieldCount,
  brandAssetFileName,
  brandAssetObjectName,
} from '@domain/onboarding';
import { googleFontFamilies, podcastCategories, podcastLanguages, podcastTimezones } from '@domain/onboarding-lists';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { blobReader, mp4Dimensions, mp4DurationSeconds } from '../../supabase/functions/_shared/domain/mp4-header.ts';
import { jpegBytes, mp4Bytes, pngBytes } from '../support/media-fixtures.ts';

const complete = {
  podcastTitle: 'The Show',
  podcastDescription: 'About',
  podcastAuthor: 'Ada',
  podcastPrimaryCategory: 'Technology',
  brandFont: 'Inter',
  brandColorPrimary: '112233',
  brandColorSecondary: 'AABBCC',
  brandColorTertiary: 'FFFFFF',
};

describe('required fields', () => {
  it('setup mode requires ten fields, update mode none', () => {
    expect(requiredFieldCount('setup')).toBe(10);
    expect(requiredFieldCount('update')).toBe(0);
    expect(missingRequiredFields('update', {}, {})).toEqual([]);
  });

  it('counts every missing field of an empty setup form, with the spec messages', () => {
    const missing = missingRequiredFields('setup', {}, {});
    expect(missing.map((m) => m.field)).toEqual([
      'podcastTitle', 'podcastDescription', 'podcastAuthor', 'podcastCover', 'podcastPrimaryCategory',
      'brandFont', 'brandColorPrimary', 'brandColorSecondary', 'brandColorTertiary', 'logo',
    ]);
    expect(missing.map((m) => m.message)).toContain('Brand logo is required');
    expect(missing.map((m) => m.message)).toContain('Primary category is required');
  });

  it("counts chosen or stored files as present and 'not provided' or blanks as missing", () => {
    expect(missingRequiredFields('setup', complete, { logo: true, podcastCover: true })).toEqual([]);
    const missing = missingRequiredFields('setup', { ...complete, podcastAuthor: ' Not Provided ', brandFont: '  ' }, { logo: true });
    expect(missing.map((m) => m.field)).toEqual(['podcastAuthor', 'podcastCover', 'brandFont']);
  });

  it('counts a colour as complete only when it is a valid one, as the form validates it', () => {
    const colours = { brandColorPrimary: '12', brandColorSecondary: 'GGGGGG', brandColorTertiary: ' a1b2c3 ' };
    const missing = missingRequiredFields('setup', { ...complete, ...colours }, { logo: true, podcastCover: true });
    expect(missing.map((m) => m.field)).toEqual(['brandColorPrimary', 'brandColorSecondary']);
  });
});

describe('colours', () => {
  it('strips #, upper-cases and keeps 6 characters', () => {
    expect(normalizeHexColor('#1a2b3c')).toBe('1A2B3C');
    expect(normalizeHexColor('##abcdef99')).toBe('ABCDEF');
  });
  it('refuses anything but 6 hex characters', () => {
    for (const bad of ['12345', 'GGGGGG', '#12345']) {
      const result = z.safeParse(onboardingFieldsSchema, { brandColorPrimary: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toBe('Must be a 6 character HEX code without #');
    }
    expect(z.safeParse(onboardingFieldsSchema, { brandColorPrimary: 'a1B2c3' }).success).toBe(true);
  });
});

describe('lists', () => {
  it('timezones: 30-minute steps from UTC-12:00 with -00:30 and +05:30 but not +05:45, up to +14:00', () => {
    expect(podcastTimezones[0]).toBe('UTC-12:00');
    expect(podcastTimezones.at(-1)).toBe('UTC+14:00');
    expect(podcastTimezones).toContain('UTC-00:30');
    expect(podcastTimezones).toContain('UTC+05:30');
    expect(podcastTimezones).not.toContain('UTC+05:45');
    expect(podcastTimezones).not.toContain('UTC+13:30');
    expect(new Set(podcastTimezones).size).toBe(podcastTimezones.length);
  });
  it("the spec's 12 languages, fonts and Apple categories", () => {
    expect(podcastLanguages.map((l) => l.value)).toEqual(['en', 'es', 'fr', 'de', 'it', 'pt', 'ru', 'ja', 'ko', 'zh', 'ar', 'hi']);
    expect(googleFontFamilies.length).toBeGreaterThan(1000);
    expect(googleFontFamilies).toContain('Roboto');
    expect(podcastCategories).toContain('Technology');
    expect(podcastCategories).toContain('Arts > Books');
  });
  it('refuses values outside the lists', () => {
    expect(z.safeParse(onboardingFieldsSchema, { brandFont: 'Comic Sans MS' }).error?.issues[0].message).toBe(
      'Brand font must be one font from the Google Fonts list',
    );
    expect(z.safeParse(onboardingFieldsSchema, { podcastTimezone: 'UTC+05:45' }).success).toBe(false);
    expect(z.safeParse(onboardingFieldsSchema, { podcastLanguage: 'nl' }).success).toBe(false);
    expect(z.safeParse(onboardingFieldsSchema, { podcastOwner: 'x' }).success).toBe(false);
  });
});

describe('file checks', () => {
  it('types by name and declared type', () => {
    expect(fileTypeProblem('logo', { name: 'brand.png', type: 'image/png' })).toBeNull();
    expect(fileTypeProblem('logo', { name: 'brand.jpg', type: 'image/jpeg' })).toBe('Logo must be a PNG file');
    expect(fileTypeProblem('podcastCover', { name: 'cover.JPEG', type: 'image/jpeg' })).toBeNull();
    expect(fileTypeProblem('podcastCover', { name: 'cover.png', type: 'image/png' })).toBe('Podcast artwork must be a square JPG/JPEG file');
    expect(fileTypeProblem('videoIntro', { name: 'intro.mov', type: 'video/quicktime' })).toBe('Video intro must be an MP4 file');
    expect(fileTypeProblem('clipOutro', { name: 'outro.mp4', type: 'video/mp4' })).toBeNull();
  });
  it('shapes: square artwork, 16:9 videos, 9:16 clips', () => {
    expect(fileShapeProblem('podcastCover', { width: 3000, height: 3000 })).toBeNull();
    expect(fileShapeProblem('podcastCover', { width: 3000, height: 2000 })).toBe('Podcast artwork must be a square JPG/JPEG file');
    expect(fileShapeProblem('videoIntro', { width: 854, height: 480 })).toBeNull();
    expect(fileShapeProblem('videoOutro', { width: 1080, height: 1920 })).toBe('Video outro must be a 16:9 landscape MP4 file');
    expect(fileShapeProblem('clipIntro', { width: 1080, height: 1920 })).toBeNull();
    expect(fileShapeProblem('clipIntro', { width: 1000, height: 1000 })).toBe('Clip intro must be a 9:16 portrait MP4 file');
    expect(fileShapeProblem('logo', { width: 10, height: 3 })).toBeNull();
  });
  it('content: PNG, JPEG and MP4 signatures', () => {
    expect(contentMatchesType('logo', pngBytes(4, 4))).toBe(true);
    expect(contentMatchesType('logo', jpegBytes(8, 8))).toBe(false);
    expect(contentMatchesType('podcastCover', jpegBytes(8, 8))).toBe(true);
    expect(contentMatchesType('videoIntro', mp4Bytes(16, 9))).toBe(true);
    expect(contentMatchesType('videoIntro', pngBytes(16, 9))).toBe(false);
  });
  it('object names keep the file name behind a unique prefix', () => {
    const name = brandAssetObjectName('u1', 'podcastCover', 'My Cover/../x.JPEG', 'abcdef012345');
    expect(name).toBe('u1/podcastCover/abcdef012345-My Cover_.._x.jpeg');
    expect(brandAssetFileName(name)).toBe('My Cover_.._x.jpeg');
  });
});

describe('MP4 dimensions without decoding', () => {
  const read = (bytes: Buffer) => mp4Dimensions(blobReader(new Blob([new Uint8Array(bytes)])), bytes.length);
  it('reads the video track size', async () => {
    expect(await read(mp4Bytes(1920, 1080))).toEqual({ width: 1920, height: 1080 });
    expect(await read(mp4Bytes(720, 1280))).toEqual({ width: 720, height: 1280 });
  });
  it('finds a movie box after the media data', async () => {
    expect(await read(mp4Bytes(1280, 720, { moovLast: true, padding: 100_000 }))).toEqual({ width: 1280, height: 720 });
  });
  it('answers null for a file that is no MP4', async () => {
    expect(await read(pngBytes(16, 9))).toBeNull();
  });
});

describe('MP4 length from the movie header', () => {
  const reads: number[] = [];
  const length = (bytes: Buffer) => {
    const blob = new Blob([new Uint8Array(bytes)]);
    const read = blobReader(blob);
    return mp4DurationSeconds(async (offset, size) => {
      reads.push(size);
      return read(offset, size);
    }, bytes.length);
  };
  it('reads the length, also when the movie box follows the media data, with only small reads', async () => {
    expect(await length(mp4Bytes(1920, 1080, { durationSeconds: 45 }))).toBe(45);
    reads.length = 0;
    expect(await length(mp4Bytes(1280, 720, { durationSeconds: 3725.5, moovLast: true, padding: 100_000 }))).toBe(3725.5);
    expect(Math.max(...reads)).toBeLessThanOrEqual(32);
  });
  it('answers null when the header does not say or the file is no MP4', async () => {
    expect(await length(mp4Bytes(1920, 1080))).toBeNull();
    expect(await length(pngBytes(16, 9))).toBeNull();
  });
});
