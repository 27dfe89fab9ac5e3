// Onboarding and profile rules (spec sections 3, 4, 5 and 9): the profile's text fields, the six
// brand-asset slots and their file rules, the first-time required fields, and the zod schema the
// configuration form and the `api` function both validate with.
import { z } from 'zod/mini';
import { googleFontFamilies, podcastCategories, podcastLanguages, podcastTimezones } from './onboarding-lists.ts';
import { REVIEW_WINDOWS, type ReviewWindow } from './review.ts';
import { mediaTypeOf, type SignedMediaType } from './file-signatures.ts';
import { isBlank, isBrandAssetSlot, profileTextFields, type BrandAssetSlot, type ProfileTextField } from './profile-record.ts';

export {
  attachmentOf,
  brandAssetSlots,
  isBlank,
  isBrandAssetSlot,
  type AttachmentState,
  type BrandAssetSlot,
  profileRecordSchema,
  profileTextFields,
  type ProfileRecord,
  type ProfileTextField,
} from './profile-record.ts';

z.config(z.locales.en());

const HEX_COLOR_LENGTH = 6;

const onboardingMessages = {
  hexColor: 'Must be a 6 character HEX code without #',
  brandFontRequired: 'Brand font is required',
  primaryColorRequired: 'Primary color is required',
  secondaryColorRequired: 'Secondary color is required',
  tertiaryColorRequired: 'Tertiary color is required',
  podcastTitleRequired: 'Podcast title is required',
  podcastDescriptionRequired: 'Podcast description is required',
  primaryCategoryRequired: 'Primary category is required',
  podcastAuthorRequired: 'Podcast author is required',
  logoRequired: 'Brand logo is required',
  podcastCoverRequired: 'Podcast artwork is required',
  brandFontUnknown: 'Brand font must be one font from the Google Fonts list',
  categoryUnknown: 'Category must be one of the Apple Podcasts categories',
  languageUnknown: 'Language must be one of the listed languages',
  timezoneUnknown: 'Timezone must be one of the listed UTC offsets',
} as const;

/** The colour rule (spec section 5): exactly 6 hex characters, without '#'. */
export function isHexColor(value: string): boolean {
  return new RegExp(`^[0-9A-Fa-f]{${HEX_COLOR_LENGTH}}$`).test(value);
}

/** The colour input's rule: '#' stripped, upper-cased, at most 6 characters. */
export function normalizeHexColor(input: string): string {
  return input.replace(/#/g, '').toUpperCase().slice(0, HEX_COLOR_LENGTH);
}

// ------------------------------------------------------------------ text fields

const text = (max: number) => z.string().check(z.trim(), z.maxLength(max));
/** '' (cleared) or one of `values`. */
const oneOf = (values: readonly string[], message: string) =>
  z.string().check(
    z.trim(),
    z.refine((value) => value === '' || values.includes(value), message),
  );
const hexColor = z.string().check(
  z.trim(),
  z.refine((value) => value === '' || isHexColor(value), onboardingMessages.hexColor),
);

/** The profile's text fields as the form and `/api/onboarding/submit` send them ('' clears). */
export const profileFieldsShape: Record<ProfileTextField, z.ZodMiniType<string, string>> = {
  firstName: text(200),
  lastName: text(200),
  brandFont: oneOf(googleFontFamilies, onboardingMessages.brandFontUnknown),
  brandColorPrimary: hexColor,
  brandColorSecondary: hexColor,
  brandColorTertiary: hexColor,
  podcastTitle: text(500),
  podcastDescription: text(10000),
  podcastAuthor: text(500),
  podcastCopyright: text(500),
  podcastKeywords: text(2000),
  podcastWebsite: text(2000),
  podcastLanguage: oneOf(
    podcastLanguages.map((language) => language.value),
    onboardingMessages.languageUnknown,
  ),
  podcastTimezone: oneOf(podcastTimezones, onboardingMessages.timezoneUnknown),
  podcastPrimaryCategory: oneOf(podcastCategories, onboardingMessages.categoryUnknown),
  podcastSecondaryCategory: oneOf(podcastCategories, onboardingMessages.categoryUnknown),
};

/**
 * `fields` of POST /api/onboarding/submit and of submit-with-files' fields part. Every field is
 * optional: what is left out keeps its saved value (update mode hides Podcast Details).
 */
export const onboardingFieldsSchema = z.strictObject({
  ...Object.fromEntries(profileTextFields.map((field) => [field, z.optional(profileFieldsShape[field])])),
  postAutomatically: z.optional(z.boolean()),
  reviewWindow: z.optional(z.enum(REVIEW_WINDOWS)),
  postingHour: z.optional(z.int().check(z.gte(0), z.lte(23))),
  isFirstTimeOnboarding: z.optional(z.boolean()),
}) as z.ZodMiniType<OnboardingFields>;
export type OnboardingFields = Partial<Record<ProfileTextField, string>> & {
  postAutomatically?: boolean;
  reviewWindow?: ReviewWindow;
  postingHour?: number;
  isFirstTimeOnboarding?: boolean;
};

// ------------------------------------------------------------------ brand-asset slots

type AssetShape = 'square' | 'landscape' | 'portrait';

interface SlotRule {
  mimeType: SignedMediaType;
  extensions: readonly string[];
  /** The `accept` attribute of the file chooser. */
  accept: string;
  shape: AssetShape | null;
  maxBytes: number;
  typeMessage: string;
  shapeMessage: string;
  sizeMessage: string;
}

const MiB = 1024 * 1024;
const IMAGE_MAX_BYTES = 10 * MiB;
export const VIDEO_MAX_BYTES = 200 * MiB;

const video = (label: string, shape: 'landscape' | 'portrait'): SlotRule => ({
  mimeType: 'video/mp4',
  extensions: ['mp4'],
  accept: 'video/mp4,.mp4',
  shape,
  maxBytes: VIDEO_MAX_BYTES,
  typeMessage: `${label} must be an MP4 file`,
  shapeMessage: `${label} must be a ${shape === 'landscape' ? '16:9 landscape' : '9:16 portrait'} MP4 file`,
  sizeMessage: `${label} must be at most 200 MB`,
});

/** Spec section 5's file rules, one entry per upload slot. */
export const brandAssetRules: Record<BrandAssetSlot, SlotRule> = {
  logo: {
    mimeType: 'image/png',
    extensions: ['png'],
    accept: 'image/png,.png',
    shape: null,
    maxBytes: IMAGE_MAX_BYTES,
    typeMessage: 'Logo must be a PNG file',
    shapeMessage: 'Logo must be a PNG file',
    sizeMessage: 'Logo must be at most 10 MB',
  },
  podcastCover: {
    mimeType: 'image/jpeg',
    extensions: ['jpg', 'jpeg'],
    accept: 'image/jpeg,.jpg,.jpeg',
    shape: 'square',
    maxBytes: IMAGE_MAX_BYTES,
    typeMessage: 'Podcast artwork must be a square JPG/JPEG file',
    shapeMessage: 'Podcast artwork must be a square JPG/JPEG file',
    sizeMessage: 'Podcast artwork must be at most 10 MB',
  },
  videoIntro: video('Video intro', 'landscape'),
  videoOutro: video('Video outro', 'landscape'),
  clipIntro: video('Clip intro', 'portrait'),
  clipOutro: video('Clip outro', 'portrait'),
};

const extensionOf = (name: string) => (/\.([A-Za-z0-9]+)$/.exec(name)?.[1] ?? '').toLowerCase();

/** The type rule by name and declared type: null when acceptable, else the spec's message. */
export function fileTypeProblem(slot: BrandAssetSlot, file: { name: string; type: string }): string | null {
  const rule = brandAssetRules[slot];
  const type = file.type.split(';')[0].trim().toLowerCase();
  const typeOk = type === rule.mimeType || (rule.mimeType === 'image/jpeg' && type === 'image/jpg');
  return typeOk && rule.extensions.includes(extensionOf(file.name)) ? null : rule.typeMessage;
}

export function fileSizeProblem(slot: BrandAssetSlot, bytes: number): string | null {
  return bytes > brandAssetRules[slot].maxBytes ? brandAssetRules[slot].sizeMessage : null;
}

/** Aspect ratios within 1% count (1280x720, 1920x1080 and 854x480 are all 16:9). */
const ASPECT_TOLERANCE = 0.01;
const aspects: Record<AssetShape, number> = { square: 1, landscape: 16 / 9, portrait: 9 / 16 };

export function fileShapeProblem(slot: BrandAssetSlot, size: { width: number; height: number }): string | null {
  const rule = brandAssetRules[slot];
  if (!rule.shape) return null;
  if (!(size.width > 0 && size.height > 0)) return rule.shapeMessage;
  const wanted = aspects[rule.shape];
  return Math.abs(size.width / size.height - wanted) / wanted <= ASPECT_TOLERANCE ? null : rule.shapeMessage;
}

/** Whether a file's first bytes (at least SIGNATURE_BYTES of them) are of the slot's type. */
export function contentMatchesType(slot: BrandAssetSlot, head: Uint8Array): boolean {
  return mediaTypeOf(head) === brandAssetRules[slot].mimeType;
}

/** The Storage bucket of the brand assets (created by the migrations, private to the owner). */
export const BRAND_ASSETS_BUCKET = 'brand-assets';

/**
 * Object name in the brand-assets bucket: `<user id>/<slot>/<unique prefix>-<file name>`. The
 * prefix keeps a replacement from overwriting the file it replaces until the profile points at it.
 */
export function brandAssetObjectName(userId: string, slot: BrandAssetSlot, fileName: string, uniquePrefix: string): string {
  const extension = brandAssetRules[slot].extensions.includes(extensionOf(fileName))
    ? extensionOf(fileName)
    : brandAssetRules[slot].extensions[0];
  const stem = fileName
    .replace(/\.[A-Za-z0-9]+$/, '')
    .replace(/[^A-Za-z0-9 ._()-]+/g, '_')
    .replace(/^[.\s]+/, '')
    .slice(0, 100);
  return `${userId}/${slot}/${uniquePrefix}-${stem || slot}.${extension}`;
}

/** The file name a user sees for a stored object: its last segment without the unique prefix. */
export function brandAssetFileName(objectName: string): string {
  const last = objectName.split('/').pop() ?? '';
  return last.replace(/^[0-9a-f]{12}-/, '');
}

// ------------------------------------------------------------------ first-time required fields

export type OnboardingMode = 'setup' | 'update';

type RequiredField =
  | 'brandFont'
  | 'brandColorPrimary'
  | 'brandColorSecondary'
  | 'brandColorTertiary'
  | 'podcastTitle'
  | 'podcastDescription'
  | 'podcastPrimaryCategory'
  | 'podcastAuthor'
  | 'logo'
  | 'podcastCover';

/** Required in first-time mode, in form order, with the spec's messages (section 5). */
export const requiredOnboardingFields: readonly { field: RequiredField; message: string }[] = [
  { field: 'podcastTitle', message: onboardingMessages.podcastTitleRequired },
  { field: 'podcastDescription', message: onboardingMessages.podcastDescriptionRequired },
  { field: 'podcastAuthor', message: onboardingMessages.podcastAuthorRequired },
  { field: 'podcastCover', message: onboardingMessages.podcastCoverRequired },
  { field: 'podcastPrimaryCategory', message: onboardingMessages.primaryCategoryRequired },
  { field: 'brandFont', message: onboardingMessages.brandFontRequired },
  { field: 'brandColorPrimary', message: onboardingMessages.primaryColorRequired },
  { field: 'brandColorSecondary', message: onboardingMessages.secondaryColorRequired },
  { field: 'brandColorTertiary', message: onboardingMessages.tertiaryColorRequired },
  { field: 'logo', message: onboardingMessages.logoRequired },
];

const requiredColorFields: readonly RequiredField[] = [
  'brandColorPrimary',
  'brandColorSecondary',
  'brandColorTertiary',
];

/**
 * The required fields of `mode` that are still missing. A text field counts when it is not blank,
 * a colour only when it is a valid one ('12' is not complete); a file slot when a file is chosen
 * or one is already stored (`filesPresent`). Update mode requires nothing.
 */
export function missingRequiredFields(
  mode: OnboardingMode,
  values: Partial<Record<ProfileTextField, string | null>>,
  filesPresent: Partial<Record<BrandAssetSlot, boolean>>,
): { field: RequiredField; message: string }[] {
  if (mode === 'update') return [];
  return requiredOnboardingFields.filter(({ field }) => {
    if (isBrandAssetSlot(field)) return !filesPresent[field];
    const value = values[field];
    if (requiredColorFields.includes(field)) return !isHexColor(value?.trim() ?? '');
    return isBlank(value);
  });
}

/**
 * The spec's words for required fields named by their spec names ('brandFont, logo', the list
 * complete_onboarding() raises), in the given order; a name without a message stays as it is.
 */
export function missingFieldsMessage(fields: readonly string[]): string {
  return fields.map((field) => requiredOnboardingFields.find((item) => item.field === field)?.message ?? field).join(', ');
}

export function requiredFieldCount(mode: OnboardingMode): number {
  return mode === 'update' ? 0 : requiredOnboardingFields.length;
}
