// The profile as reads return it (GET /api/airtable/user-data) and the rules that read it: the
// brand-asset slots, what counts as empty. Apart from onboarding.ts's schema and choice lists, so
// the dashboard's profile view loads without them.
import { z } from 'zod/mini';
import { REVIEW_WINDOWS, type ReviewWindow } from './review.ts';

/** The profile's text fields (onboarding.ts holds each one's rule). */
export const profileTextFields = [
  'firstName',
  'lastName',
  'brandFont',
  'brandColorPrimary',
  'brandColorSecondary',
  'brandColorTertiary',
  'podcastTitle',
  'podcastDescription',
  'podcastAuthor',
  'podcastCopyright',
  'podcastKeywords',
  'podcastWebsite',
  'podcastLanguage',
  'podcastTimezone',
  'podcastPrimaryCategory',
  'podcastSecondaryCategory',
] as const;
export type ProfileTextField = (typeof profileTextFields)[number];

/** 'not provided' (any case) and blanks are empty (spec section 3). */
export function isBlank(value: string | null | undefined): boolean {
  const trimmed = (value ?? '').trim();
  return trimmed === '' || trimmed.toLowerCase() === 'not provided';
}

export const brandAssetSlots = ['logo', 'podcastCover', 'videoIntro', 'videoOutro', 'clipIntro', 'clipOutro'] as const;
export type BrandAssetSlot = (typeof brandAssetSlots)[number];

export function isBrandAssetSlot(value: unknown): value is BrandAssetSlot {
  return typeof value === 'string' && (brandAssetSlots as readonly string[]).includes(value);
}

export interface AttachmentState {
  exists: boolean;
  filename: string | null;
}

/** The name of each slot's file in reads. */
const attachmentNames = {
  logo: 'logo',
  podcastCover: 'podcastCover',
  videoIntro: 'introVideoClip',
  videoOutro: 'outroVideoClip',
  clipIntro: 'introAudioClip',
  clipOutro: 'outroAudioClip',
} as const satisfies Record<BrandAssetSlot, string>;

/** GET /api/airtable/user-data: the profile, or null when no profile data was ever saved. */
export type ProfileRecord = Record<ProfileTextField, string | null> & {
  emailAddress: string | null;
  postAutomatically: boolean;
  /** Post Settings: how long posting waits for review, and the hour clips go out (issue 41). */
  reviewWindow: ReviewWindow;
  postingHour: number;
  lastUpdated: string | null;
} & Record<(typeof attachmentNames)[BrandAssetSlot], AttachmentState>;

export function attachmentOf(record: ProfileRecord, slot: BrandAssetSlot): AttachmentState {
  return record[attachmentNames[slot]];
}

const attachmentStateSchema = z.object({ exists: z.boolean(), filename: z.nullable(z.string()) });

/** GET /api/airtable/user-data (and the saves, which answer the same) as the SPA parses it. */
export const profileRecordSchema = z.nullable(
  z.object({
    ...Object.fromEntries(profileTextFields.map((field) => [field, z.nullable(z.string())])),
    emailAddress: z.nullable(z.string()),
    postAutomatically: z.boolean(),
    reviewWindow: z.enum(REVIEW_WINDOWS),
    postingHour: z.int(),
    lastUpdated: z.nullable(z.string()),
    ...Object.fromEntries(brandAssetSlots.map((slot) => [attachmentNames[slot], attachmentStateSchema])),
  }),
) as z.ZodMiniType<ProfileRecord | null>;
