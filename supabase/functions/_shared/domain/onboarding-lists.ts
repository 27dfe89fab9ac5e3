// The choice lists of the configuration form (spec section 2), shared by the form's selects and
// the server's validation. Fonts and categories are generated from npm packages
// (scripts/gen-onboarding-lists.ts); languages and timezones are the spec's own.
import { googleFontFamilies } from './google-fonts.ts';
import { podcastCategoryGroups } from './podcast-categories.ts';
import { podcastLanguages } from './podcast-languages.ts';

export { googleFontFamilies, podcastCategoryGroups, podcastLanguages };

const pad = (n: number) => String(n).padStart(2, '0');

/** 'UTC-05:30' for -330 minutes. */
function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * UTC offsets in 30-minute steps from UTC-12:00 to UTC+12:00 (so UTC-00:30 and UTC+05:30 are in,
 * UTC+05:45 is not), then whole hours only up to UTC+14:00.
 */
export const podcastTimezones: readonly string[] = [
  ...Array.from({ length: 49 }, (_, i) => utcOffset(-720 + i * 30)),
  utcOffset(13 * 60),
  utcOffset(14 * 60),
];

/** Every category value: each top-level category and each 'Category > Subcategory'. */
export const podcastCategories: readonly string[] = podcastCategoryGroups.flatMap((group) => [
  group.name,
  ...group.subcategories.map((sub) => categoryValue(group.name, sub)),
]);

export function categoryValue(group: string, subcategory: string): string {
  return `${group} > ${subcategory}`;
}
