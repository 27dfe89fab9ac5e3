// The social sandbox's records: the posts (persisted), the media being uploaded, and the failures asked for.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { JsonFile } from '../persist.ts';

export type Platform = 'x' | 'linkedin' | 'wordpress';

export interface SocialPostRecord {
  platform: Platform;
  id: string;
  owner: string;
  text: string;
  mediaBytes: number;
  mediaSha256: string;
  createdAt: string;
  /** WordPress: the post's HTML and status (draft or publish). */
  content?: string;
  status?: string;
}

export interface Media {
  platform: Platform;
  owner: string;
  declaredBytes: number;
  /** Received parts by index (X segments, LinkedIn parts). */
  parts: Map<number, Buffer>;
  finalized: boolean;
}

export interface State {
  posts: SocialPostRecord[];
}

export const newId = () => BigInt(`0x${randomBytes(7).toString('hex')}`).toString();
/** WordPress ids are small integers (JSON numbers, exact). */
export const wordpressId = () => String(randomBytes(4).readUInt32BE() >>> 1);

export const json = (body: Buffer) => JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;

export type SocialStore = ReturnType<typeof createSocialStore>;

export function createSocialStore(dataDir: string) {
  const state: State = { posts: [] };
  const persisted = new JsonFile<State>(path.join(dataDir, 'social.json'), () => state);
  Object.assign(state, persisted.load() ?? {});
  const media = new Map<string, Media>();
  const failNext: Partial<Record<Platform, number>> = {};

  /** True (and counted down) when the platform's next post-creating call must fail. */
  function failing(platform: Platform): boolean {
    if (!failNext[platform]) return false;
    failNext[platform] -= 1;
    return true;
  }

  function record(platform: Platform, owner: string, text: string, item: Media, wordpress?: { content: string; status: string }): SocialPostRecord {
    const bytes = Buffer.concat([...item.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part));
    const post: SocialPostRecord = {
      platform,
      id: platform === 'wordpress' ? wordpressId() : newId(),
      owner,
      text,
      mediaBytes: bytes.length,
      mediaSha256: createHash('sha256').update(bytes).digest('hex'),
      createdAt: new Date().toISOString(),
      ...wordpress,
    };
    state.posts.push(post);
    persisted.save();
    return post;
  }

  return { state, persisted, media, failNext, failing, record };
}
