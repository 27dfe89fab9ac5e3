// The configuration form's values: their shape, defaults from the stored profile, and the schema.
import type { Account } from '@domain/account';
import {
  attachmentOf,
  brandAssetSlots,
  isBlank,
  missingRequiredFields,
  normalizeHexColor,
  profileFieldsShape,
  profileTextFields,
  type BrandAssetSlot,
  type OnboardingMode,
  type ProfileRecord,
  type ProfileTextField,
} from '@domain/onboarding';
import { DEFAULT_POSTING_HOUR, DEFAULT_REVIEW_WINDOW, REVIEW_WINDOWS, type ReviewWindow } from '@domain/review';
import { z } from 'zod/mini';

export type ConfigurationValues = Record<ProfileTextField, string> & {
  emailAddress: string;
  postAutomatically: boolean;
  reviewWindow: ReviewWindow;
  /** The posting hour as its select holds it ('0' to '23'). */
  postingHour: string;
  files: Partial<Record<BrandAssetSlot, File | null>>;
};

/** The podcast's own fields, in the profile's order. */
export const podcastFields: ProfileTextField[] = profileTextFields.filter((field) => field.startsWith('podcast'));
export const colorFields = ['brandColorPrimary', 'brandColorSecondary', 'brandColorTertiary'] as const;

function storedFiles(record: ProfileRecord | null | undefined): Partial<Record<BrandAssetSlot, boolean>> {
  return Object.fromEntries(brandAssetSlots.map((slot) => [slot, record ? attachmentOf(record, slot)?.exists === true : false]));
}

export function presentFiles(record: ProfileRecord | null | undefined, chosen: ConfigurationValues['files']) {
  const stored = storedFiles(record);
  return Object.fromEntries(brandAssetSlots.map((slot) => [slot, Boolean(stored[slot] || chosen?.[slot])]));
}

export function configurationSchema(mode: OnboardingMode, record: ProfileRecord | null | undefined) {
  return z
    .object({
      ...profileFieldsShape,
      emailAddress: z.string(),
      postAutomatically: z.boolean(),
      reviewWindow: z.enum(REVIEW_WINDOWS),
      postingHour: z.string(),
      files: z.custom<ConfigurationValues['files']>(),
    })
    .check(
      z.superRefine((values, ctx) => {
        for (const { field, message } of missingRequiredFields(mode, values, presentFiles(record, values.files))) {
          ctx.addIssue({ code: 'custom', message, path: (brandAssetSlots as readonly string[]).includes(field) ? ['files', field] : [field], input: values });
        }
      }),
    );
}

export function defaultsFrom(record: ProfileRecord | null | undefined, account: Account): ConfigurationValues {
  const text = (field: ProfileTextField) => {
    const value = record?.[field] ?? null;
    if (isBlank(value)) return '';
    return colorFields.includes(field as (typeof colorFields)[number]) ? normalizeHexColor(value!) : value!;
  };
  const values = Object.fromEntries(profileTextFields.map((field) => [field, text(field)])) as Record<ProfileTextField, string>;
  return {
    ...values,
    firstName: values.firstName || account.firstName || '',
    lastName: values.lastName || account.lastName || '',
    emailAddress: record?.emailAddress ?? account.email,
    postAutomatically: record?.postAutomatically ?? account.postAutomatically,
    reviewWindow: record?.reviewWindow ?? DEFAULT_REVIEW_WINDOW,
    postingHour: String(record?.postingHour ?? DEFAULT_POSTING_HOUR),
    files: {},
  };
}
