// The show's podcast feed (issue 44): made once onboarding completes, rebuilt when an episode is
// delivered or renamed and when the profile changes, read by a real podcast feed parser
// (podcast-partytime, Podcast Index's) and checked against Apple's published requirements; the
// first feed that passes opens episode submission without an operator, and artwork Apple would
// refuse is named in words.
import { parseFeed } from 'podcast-partytime';
import { describe, expect, it } from 'vitest';
import { APPLE_ENCLOSURE_TYPES } from '../../supabase/functions/_shared/domain-server/apple-podcast-requirements.ts';
import { podcastCategoryGroups } from '../../supabase/functions/_shared/domain/podcast-categories.ts';
import { BRAND_ASSETS_BUCKET } from '../../supabase/functions/_shared/domain/onboarding.ts';
import { artworkMessages } from '../../supabase/functions/_shared/domain/podcast-artwork.ts';
import { sampleContent } from '../support/episode-page.ts';
import { callApi, tokenOf } from '../support/episodes.ts';
import { jpegBytes } from '../support/media-fixtures.ts';
import { databaseNow, deliveredEpisode, feedBuiltSince, onboardedShow } from '../support/podcast-feed.ts';
import { config, serviceClient, withDb } from '../support/stack.ts';
import { createUser, type TestUser } from '../support/users.ts';

const runBuilder = (key: string, method = 'POST') =>
  fetch(`${config.urls.api}/functions/v1/podcast-feed-builder`, { method, headers: { authorization: `Bearer ${key}` } });

/** The feed's address as the dashboard gets it, and the feed as a podcast app fetches it. */
async function fetchFeed(user: TestUser) {
  const answer = await callApi('GET', 'podcast-feed', await tokenOf(user));
  expect(answer.status).toBe(200);
  const res = await fetch(answer.body.feed.feedUrl);
  expect(res.status).toBe(200);
  const xml = await res.text();
  const parsed = parseFeed(xml);
  if (!parsed) throw new Error(`the parser could not read the feed:\n${xml}`);
  return { answer: answer.body.feed, res, xml, feed: parsed };
}

const appleCategories = new Set(podcastCategoryGroups.map((group) => group.name));

describe('podcast-feed-builder', () => {
  it('an onboarded show gets a public feed that passes Apple’s required tags, and submission opens without an operator', async () => {
    const user = await onboardedShow();
    const built = await feedBuiltSince(user.id, new Date(0));
    expect(built).toMatchObject({ status: 'valid', problems: [] });

    const { answer, res, xml, feed } = await fetchFeed(user);
    expect(answer).toMatchObject({ status: 'valid', problems: [], episodeCount: 0, hostingReady: true, ownerEmail: user.email });
    expect(answer.feedUrl).toBe(`${config.urls.api}/storage/v1/object/public/podcast-feeds/feeds/${built.feed_key}.xml`);
    expect(res.headers.get('content-type')).toBe('application/rss+xml');
    expect(res.headers.get('cache-control')).toBe('max-age=300');

    // Apple's required show tags: title, description, artwork, language, category, explicit.
    expect(xml).toContain('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"');
    expect(feed).toMatchObject({
      title: 'Engines of Thought',
      description: 'Conversations about computing & engines.',
      language: 'en',
      link: 'https://engines.example.com',
      author: 'Ada Lovelace',
      copyright: '2026 Ada Lovelace',
      owner: { name: 'Ada Lovelace', email: user.email },
      itunesType: 'episodic',
      itunesCategory: ['Technology', 'Society & Culture > Documentary'],
      explicit: false,
    });
    expect(appleCategories.has(feed.itunesCategory?.[0] ?? '')).toBe(true);
    // Apple spells it true/false (not the older yes/no).
    expect(xml).toMatch(/<itunes:explicit>false<\/itunes:explicit>/);
    expect(feed.itunesImage).toMatch(/\/podcast-feeds\/artwork\/[0-9a-f]{32}\/[0-9a-f]{16}\.jpg$/);
    const artwork = await fetch(feed.itunesImage ?? '', { method: 'HEAD' });
    expect([artwork.status, artwork.headers.get('content-type')]).toEqual([200, 'image/jpeg']);

    expect(await withDb(async (db) => (await db.query('select hosting_ready_at from public.profiles where id = $1', [user.id])).rows[0].hosting_ready_at)).not.toBeNull();
    const stats = await callApi('GET', 'episodes/stats', await tokenOf(user));
    expect(stats.body.hostingSetup).toBe(true);
    expect(stats.body.blockReason).not.toBe('hosting_setup');
  });

  it('a delivered episode appears with its sound, transcript and chapters; a new title keeps its GUID; a profile change updates the show', async () => {
    const user = await onboardedShow({ title: 'First Title' });
    await feedBuiltSince(user.id, new Date(0));

    const before = await databaseNow();
    const episode = await deliveredEpisode(user.id, 'Building the engine');
    await feedBuiltSince(user.id, before);
    const { feed, answer } = await fetchFeed(user);
    expect(answer.episodeCount).toBe(1);
    expect(feed.items).toHaveLength(1);
    const [item] = feed.items;
    expect(item).toMatchObject({
      guid: episode.episodeId,
      title: 'Building the engine',
      description: sampleContent().showNotes?.summary,
      duration: 1200,
    });
    expect(item.pubDate).toBeInstanceOf(Date);
    // Apple's required episode tags: the enclosure's URL, type and length (the bytes served).
    expect(APPLE_ENCLOSURE_TYPES).toContain(item.enclosure.type);
    expect(item.enclosure.type).toBe('audio/x-m4a');
    expect(item.enclosure.url).toMatch(/\.m4a$/);
    const sound = await fetch(item.enclosure.url);
    expect(sound.status).toBe(200);
    expect(Buffer.from(await sound.arrayBuffer()).equals(episode.audio)).toBe(true);
    expect(item.enclosure.length).toBe(episode.audio.length);
    const ranged = await fetch(item.enclosure.url, { headers: { range: 'bytes=100-199' } });
    expect([ranged.status, (await ranged.arrayBuffer()).byteLength]).toEqual([206, 100]);

    // Podcasting 2.0: the WebVTT transcript and the JSON chapters, at addresses that answer.
    expect(item.podcastTranscripts).toEqual([expect.objectContaining({ type: 'text/vtt', rel: 'captions', language: 'en-US' })]);
    const transcript = await fetch(item.podcastTranscripts?.[0].url ?? '');
    expect([transcript.status, (await transcript.text()).startsWith('WEBVTT')]).toEqual([200, true]);
    expect(item.podcastChapters?.type).toBe('application/json+chapters');
    const chapters = await fetch(item.podcastChapters?.url ?? '');
    expect(chapters.status).toBe(200);
    expect(await chapters.json()).toEqual({
      version: '1.2.0',
      chapters: (sampleContent().showNotes?.chapters ?? []).map((chapter) => ({ startTime: chapter.start, title: chapter.title })),
    });

    // A new title: the same GUID and sound, the new title.
    const renamed = await databaseNow();
    await withDb((db) => db.query(`update public.episodes set title = 'Taking the engine apart' where id = $1`, [episode.episodeId]));
    await feedBuiltSince(user.id, renamed);
    const afterRename = (await fetchFeed(user)).feed.items[0];
    expect([afterRename.guid, afterRename.title, afterRename.enclosure.url]).toEqual([episode.episodeId, 'Taking the engine apart', item.enclosure.url]);

    // The profile's podcast details: the show's title follows.
    const edited = await databaseNow();
    await withDb((db) => db.query(`update public.profiles set podcast_title = 'Second Title' where id = $1`, [user.id]));
    await feedBuiltSince(user.id, edited);
    const afterEdit = (await fetchFeed(user)).feed;
    expect([afterEdit.title, afterEdit.items[0].guid]).toEqual(['Second Title', episode.episodeId]);
  });

  it('names in words what Apple would refuse in the artwork, keeps submission closed, and clears once the artwork is fixed', async () => {
    const user = await onboardedShow({ cover: jpegBytes(600, 600) });
    expect(await feedBuiltSince(user.id, new Date(0))).toMatchObject({ status: 'invalid', problems: [artworkMessages.tooSmall(600, 600)] });
    const { answer } = await fetchFeed(user);
    expect(answer).toMatchObject({ status: 'invalid', problems: [artworkMessages.tooSmall(600, 600)], hostingReady: false });
    expect((await callApi('GET', 'episodes/stats', await tokenOf(user))).body.hostingSetup).toBe(false);

    // The subscriber replaces the artwork (as the profile form saves it): the feed passes, submission opens.
    const replaced = await databaseNow();
    const newPath = `${user.id}/podcastCover/abcdef123456-square.jpg`;
    const { error } = await serviceClient().storage.from(BRAND_ASSETS_BUCKET).upload(newPath, jpegBytes(1500, 1500), { contentType: 'image/jpeg' });
    expect(error).toBeNull();
    await withDb((db) => db.query('update public.profiles set podcast_cover_path = $2 where id = $1', [user.id, newPath]));
    expect(await feedBuiltSince(user.id, replaced)).toMatchObject({ status: 'valid', problems: [] });
    expect((await fetchFeed(user)).answer.hostingReady).toBe(true);
  });

  it('answers only the scheduler (service key, POST); the dashboard read needs a session and is null before onboarding', async () => {
    expect((await runBuilder(config.anonKey)).status).toBe(401);
    expect((await runBuilder(config.serviceRoleKey, 'GET')).status).toBe(405);
    const run = await runBuilder(config.serviceRoleKey);
    expect(run.status).toBe(200);
    expect(await run.json()).toMatchObject({ failed: 0 });

    expect((await callApi('GET', 'podcast-feed')).status).toBe(401);
    const subscriber = await createUser('subscribed');
    expect(await callApi('GET', 'podcast-feed', await tokenOf(subscriber))).toEqual({ status: 200, body: { feed: null } });
  });
});
