// The public address of an object in the podcast feeds' bucket, as podcast apps fetch it: under
// PODCAST_FEEDS_PUBLIC_URL when a CDN or custom domain is in front of the bucket, else Storage's
// own public URL (storage-js's getPublicUrl).
import { PODCAST_FEEDS_BUCKET } from './domain/episodes.ts';
import { settings } from './config.ts';
import { serviceClient } from './supabase-clients.ts';

export function podcastFeedsPublicUrl(path: string): string {
  const base = settings().podcastFeedsUrl;
  return base ? `${base}/${path}` : serviceClient().storage.from(PODCAST_FEEDS_BUCKET).getPublicUrl(path).data.publicUrl;
}
