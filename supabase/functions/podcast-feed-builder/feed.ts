// One show's RSS feed, made with feedsmith from the profile's podcast details and its delivered
// episodes (the iTunes tags Apple reads, Podcasting 2.0's transcript and chapters), and read back
// with feedsmith's parser for the check against Apple's requirements.
import { generateRssFeed, parseRssFeed } from 'feedsmith';
import {
  APPLE_DESCRIPTION_MAX_BYTES,
  APPLE_TAG_MAX_CHARACTERS,
  type FeedForApple,
} from '../_shared/domain-server/apple-podcast-requirements.ts';
import type { Chapter } from '../_shared/domain/episode-content.ts';

/** The enclosure type of the episodes' sound (an M4A of AAC), as Apple lists it. */
export const ENCLOSURE_TYPE = 'audio/x-m4a';
/** The language a feed declares when the profile names none (Apple requires one). */
const DEFAULT_LANGUAGE = 'en';

export interface FeedEpisode {
  id: string;
  title: string;
  publishedAt: string;
  audioUrl: string;
  audioBytes: number;
  durationSeconds: number;
  transcriptUrl: string | null;
  transcriptLanguage: string | null;
  chaptersUrl: string | null;
  summary: string | null;
}

export interface FeedShow {
  feedUrl: string;
  title: string | null;
  description: string | null;
  author: string | null;
  ownerEmail: string | null;
  copyright: string | null;
  keywords: string | null;
  website: string | null;
  language: string | null;
  categories: (string | null)[];
  artworkUrl: string | null;
  episodes: FeedEpisode[];
}

const clipCharacters = (text: string, max = APPLE_TAG_MAX_CHARACTERS) => Array.from(text).slice(0, max).join('');

/** At most `max` bytes of UTF-8, cut between characters. */
function clipBytes(text: string, max = APPLE_DESCRIPTION_MAX_BYTES): string {
  const encoder = new TextEncoder();
  let bytes = 0;
  let out = '';
  for (const character of text) {
    bytes += encoder.encode(character).length;
    if (bytes > max) break;
    out += character;
  }
  return out;
}

const blankToUndefined = (value: string | null | undefined) => (value?.trim() ? value.trim() : undefined);
const isHttpUrl = (value: string | undefined) => !!value && /^https?:\/\/\S+$/i.test(value);

/** 'Society & Culture > Documentary' as itunes:category with its subcategory. */
function itunesCategory(value: string) {
  const [text, sub] = value.split(' > ');
  return sub ? { text, categories: [{ text: sub }] } : { text };
}

/** Podcasting 2.0 JSON chapters of an episode (https://github.com/Podcastindex-org/podcast-namespace, chapters.md). */
export function jsonChapters(chapters: Pick<Chapter, 'start' | 'title'>[]): string {
  return JSON.stringify({ version: '1.2.0', chapters: chapters.map((chapter) => ({ startTime: chapter.start, title: chapter.title })) });
}

export function generateFeed(show: FeedShow, builtAt: Date): string {
  const title = clipCharacters(show.title?.trim() ?? '');
  const author = blankToUndefined(show.author);
  const link = isHttpUrl(blankToUndefined(show.website)) ? (show.website ?? '').trim() : show.feedUrl;
  const artwork = show.artworkUrl ?? undefined;
  const xml = generateRssFeed({
    title,
    link,
    description: clipBytes(show.description?.trim() ?? ''),
    language: blankToUndefined(show.language) ?? DEFAULT_LANGUAGE,
    copyright: blankToUndefined(show.copyright) && clipCharacters(show.copyright?.trim() ?? ''),
    lastBuildDate: builtAt,
    generator: 'Castloop',
    image: artwork ? { url: artwork, title, link } : undefined,
    atom: { links: [{ href: show.feedUrl, rel: 'self', type: 'application/rss+xml' }] },
    itunes: {
      image: artwork,
      author: author && clipCharacters(author),
      owner: show.ownerEmail ? { name: author && clipCharacters(author), email: show.ownerEmail } : undefined,
      explicit: false,
      type: 'episodic',
      categories: show.categories.flatMap((category) => (category?.trim() ? [itunesCategory(category.trim())] : [])),
      keywords: (show.keywords ?? '').split(',').map((keyword) => keyword.trim()).filter(Boolean),
    },
    items: show.episodes.map((episode) => ({
      title: clipCharacters(episode.title),
      description: clipBytes(blankToUndefined(episode.summary) ?? episode.title),
      guid: { value: episode.id, isPermaLink: false },
      pubDate: new Date(episode.publishedAt),
      enclosures: [{ url: episode.audioUrl, length: episode.audioBytes, type: ENCLOSURE_TYPE }],
      itunes: { duration: Math.round(episode.durationSeconds), episodeType: 'full' },
      podcast: {
        transcripts: episode.transcriptUrl
          ? [{ url: episode.transcriptUrl, type: 'text/vtt', rel: 'captions', language: episode.transcriptLanguage ?? undefined }]
          : undefined,
        chapters: episode.chaptersUrl ? { url: episode.chaptersUrl, type: 'application/json+chapters' } : undefined,
      },
    })),
  });
  // feedsmith writes itunes:explicit as yes/no; Apple's requirements name true/false (the only
  // value the library cannot be told), so that one element is spelled as Apple spells it.
  return xml.replace(/<itunes:explicit>no<\/itunes:explicit>/g, '<itunes:explicit>false</itunes:explicit>');
}

/** The written feed as a parser reads it, reduced to what Apple requires. */
export function readBack(xml: string): FeedForApple {
  const feed = parseRssFeed(xml);
  return {
    title: feed.title,
    description: feed.description,
    language: feed.language,
    imageUrl: feed.itunes?.image,
    categories: (feed.itunes?.categories ?? []).map((category) => ({
      text: category.text,
      subcategories: (category.categories ?? []).flatMap((sub) => (sub.text ? [sub.text] : [])),
    })),
    explicit: feed.itunes?.explicit,
    items: (feed.items ?? []).map((item) => ({ title: item.title, guid: item.guid?.value, enclosure: item.enclosures?.[0] })),
  };
}
