// Apple Podcasts' published requirements for a show's RSS feed ("A Podcaster's Guide to RSS",
// Podcasts Connect help): the tags a feed must carry or it fails Apple's validation. The
// `podcast-feed-builder` function checks each feed it writes, read back by a feed parser, against these;
// the first feed that passes after onboarding opens episode submission. Words for the subscriber.
import { podcastCategoryGroups } from '../domain/podcast-categories.ts';

/** The enclosure types Apple lists for its supported formats (M4A, MP3, MOV, MP4, M4V, PDF). */
export const APPLE_ENCLOSURE_TYPES = ['audio/x-m4a', 'audio/mpeg', 'video/quicktime', 'video/mp4', 'video/x-m4v', 'application/pdf'] as const;

/** What Apple allows in the show's and an episode's description. */
export const APPLE_DESCRIPTION_MAX_BYTES = 4000;
/** Apple: "Tag values are limited to 255 characters unless otherwise specified". */
export const APPLE_TAG_MAX_CHARACTERS = 255;

/** A feed as a parser read it, reduced to what Apple requires. */
export interface FeedForApple {
  title?: string;
  description?: string;
  language?: string;
  /** itunes:image's href. */
  imageUrl?: string;
  /** Each itunes:category's text with its subcategories' texts. */
  categories: { text?: string; subcategories: string[] }[];
  /** itunes:explicit, as a boolean (absent when the feed does not say). */
  explicit?: boolean;
  items: { title?: string; guid?: string; enclosure?: { url?: string; length?: number; type?: string } }[];
}

export const appleRequirementMessages = {
  title: 'The feed has no show title: add a podcast title to your profile.',
  description: 'The feed has no show description: add a podcast description to your profile.',
  descriptionTooLong: `The show description is longer than Apple's ${APPLE_DESCRIPTION_MAX_BYTES} bytes.`,
  language: 'The feed has no language Apple Podcasts knows (a two-letter ISO 639 code such as "en").',
  image: 'The feed has no artwork in JPG or PNG.',
  category: "The feed's category is not one of Apple Podcasts' categories.",
  explicit: 'The feed does not say whether the show is explicit.',
  episodeTitle: (guid: string) => `Episode ${guid} has no title.`,
  enclosure: (title: string) => `Episode "${title}" has no sound file Apple Podcasts can play (an M4A or MP3 with its size).`,
  guid: (title: string) => `Episode "${title}" has no identifier of its own.`,
} as const;

const byteLength = (text: string) => new TextEncoder().encode(text).length;
const isHttpUrl = (value: string | undefined) => !!value && /^https?:\/\/\S+$/i.test(value);

function categoryKnown(category: FeedForApple['categories'][number]): boolean {
  const group = podcastCategoryGroups.find((candidate) => candidate.name === category.text);
  return !!group && category.subcategories.every((sub) => group.subcategories.includes(sub));
}

/** What would make Apple refuse this feed, in words; empty when it passes. */
export function appleRequirementProblems(feed: FeedForApple): string[] {
  const problems: string[] = [];
  if (!feed.title?.trim()) problems.push(appleRequirementMessages.title);
  if (!feed.description?.trim()) problems.push(appleRequirementMessages.description);
  else if (byteLength(feed.description) > APPLE_DESCRIPTION_MAX_BYTES) problems.push(appleRequirementMessages.descriptionTooLong);
  if (!/^[a-z]{2}(-[a-z]{2})?$/i.test(feed.language ?? '')) problems.push(appleRequirementMessages.language);
  if (!isHttpUrl(feed.imageUrl) || !/\.(jpe?g|png)$/i.test(new URL(feed.imageUrl ?? 'http://x').pathname)) problems.push(appleRequirementMessages.image);
  if (feed.categories.length === 0 || !categoryKnown(feed.categories[0])) problems.push(appleRequirementMessages.category);
  if (feed.explicit === undefined) problems.push(appleRequirementMessages.explicit);
  const guids = new Set<string>();
  for (const item of feed.items) {
    const title = item.title?.trim() ?? '';
    if (!title) problems.push(appleRequirementMessages.episodeTitle(item.guid ?? '?'));
    const enclosure = item.enclosure;
    const enclosureOk =
      isHttpUrl(enclosure?.url) &&
      Number.isInteger(enclosure?.length) &&
      (enclosure?.length ?? 0) > 0 &&
      (APPLE_ENCLOSURE_TYPES as readonly string[]).includes(enclosure?.type ?? '');
    if (!enclosureOk) problems.push(appleRequirementMessages.enclosure(title));
    if (!item.guid || guids.has(item.guid)) problems.push(appleRequirementMessages.guid(title));
    if (item.guid) guids.add(item.guid);
  }
  return problems;
}
