// Posting one clip (a file on disk) to one platform, with each platform's own upload API:
// YouTube videos.insert (resumable), X API v2 chunked media upload then a post, LinkedIn's
// Videos API then a post (Posts API), WordPress's REST media upload then a published post (and
// the episode's blog post, text only).
// Each answers the platform's id for the post. Base URLs are the local sandbox in development.
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { ProcessingFailure } from '../failure.ts';
import { fileBody } from './file-body.ts';
import { htmlText, linkedinCommentary, youtubeText } from '../content/platform-text.ts';
import { answerJson, check } from './provider-answer.ts';
import type { WorkerConfig } from '../config.ts';
import { assertPublicSite, siteJson, USER_SITE_TIMEOUT_MS, USER_SITE_UPLOAD_TIMEOUT_MS } from './user-site.ts';

export interface Clip {
  file: string;
  title: string;
  /** The post's text for this platform (the title when the clip has none of its own). */
  text: string;
  /** YouTube's description; WordPress's content under the video (HTML blocks). */
  body?: string;
}

/** Reads `length` bytes at `position` (one chunk of a chunked upload; chunks are a few MiB). */
async function chunkOf(file: string, position: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const handle = await open(file, 'r');
  try {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export async function postToYouTube(config: WorkerConfig, token: string, clip: Clip): Promise<string> {
  const size = statSync(clip.file).size;
  const start = await fetch(`${config.googleApiBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json; charset=UTF-8',
      'x-upload-content-type': 'video/mp4',
      'x-upload-content-length': String(size),
    },
    body: JSON.stringify({ snippet: { title: [...youtubeText(clip.title)].slice(0, 100).join(''), description: youtubeText(clip.body ?? '') }, status: { privacyStatus: 'public' } }),
  });
  await check(start, 'Starting the YouTube upload');
  const session = start.headers.get('location');
  await start.body?.cancel();
  if (!session) throw ProcessingFailure.refusal(502, 'Starting the YouTube upload: no upload session');
  const res = await fetch(session, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'video/mp4', 'content-length': String(size) },
    body: fileBody(clip.file),
    duplex: 'half',
  } as RequestInit);
  return ((await answerJson(res, 'Uploading to YouTube')) as { id: string }).id;
}

const X_CHUNK = 4 * 1024 * 1024;

/** X API v2: initialize, append 4 MiB segments, finalize, wait for processing, then post. */
export async function postToX(config: WorkerConfig, token: string, clip: Clip): Promise<string> {
  const auth = { authorization: `Bearer ${token}` };
  const size = statSync(clip.file).size;
  const init = await fetch(`${config.xApiBase}/2/media/upload/initialize`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ media_type: 'video/mp4', total_bytes: size, media_category: 'tweet_video' }),
  });
  const mediaId = ((await answerJson(init, 'Starting the X media upload')) as { data: { id: string } }).data.id;
  for (let position = 0, segment = 0; position < size; position += X_CHUNK, segment += 1) {
    const form = new FormData();
    form.set('segment_index', String(segment));
    form.set('media', new Blob([await chunkOf(clip.file, position, X_CHUNK)], { type: 'application/octet-stream' }), 'chunk');
    await check(await fetch(`${config.xApiBase}/2/media/upload/${mediaId}/append`, { method: 'POST', headers: auth, body: form }), 'Uploading to X');
  }
  const finalized = await fetch(`${config.xApiBase}/2/media/upload/${mediaId}/finalize`, { method: 'POST', headers: auth });
  let processing = ((await answerJson(finalized, 'Finishing the X media upload')) as { data: { processing_info?: { state: string; check_after_secs?: number } } }).data.processing_info;
  for (let polls = 0; processing && processing.state !== 'succeeded'; polls += 1) {
    if (processing.state === 'failed' || polls > 60) throw ProcessingFailure.refusal(502, `X could not process the video (${processing.state})`);
    await new Promise((resolve) => setTimeout(resolve, (processing?.check_after_secs ?? 1) * 1000));
    const status = await fetch(`${config.xApiBase}/2/media/upload?command=STATUS&media_id=${mediaId}`, { headers: auth });
    processing = ((await answerJson(status, 'Checking the X media upload')) as { data: { processing_info?: { state: string; check_after_secs?: number } } }).data.processing_info;
  }
  const post = await fetch(`${config.xApiBase}/2/tweets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ text: clip.text, media: { media_ids: [mediaId] } }),
  });
  return ((await answerJson(post, 'Posting to X')) as { data: { id: string } }).data.id;
}

/** LinkedIn: the member's URN, the Videos API (initialize, PUT each part, finalize), then a post. */
export async function postToLinkedIn(config: WorkerConfig, token: string, clip: Clip): Promise<string> {
  const rest = { authorization: `Bearer ${token}`, 'linkedin-version': config.linkedinVersion, 'x-restli-protocol-version': '2.0.0' };
  const me = await fetch(`${config.linkedinApiBase}/v2/userinfo`, { headers: { authorization: `Bearer ${token}` } });
  const author = `urn:li:person:${((await answerJson(me, 'Reading the LinkedIn member')) as { sub: string }).sub}`;
  const size = statSync(clip.file).size;
  const init = await fetch(`${config.linkedinApiBase}/rest/videos?action=initializeUpload`, {
    method: 'POST',
    headers: { ...rest, 'content-type': 'application/json' },
    body: JSON.stringify({ initializeUploadRequest: { owner: author, fileSizeBytes: size, uploadCaptions: false, uploadThumbnail: false } }),
  });
  const { value } = (await answerJson(init, 'Starting the LinkedIn video upload')) as {
    value: { video: string; uploadToken: string; uploadInstructions: { uploadUrl: string; firstByte: number; lastByte: number }[] };
  };
  const partIds: string[] = [];
  for (const part of value.uploadInstructions) {
    const bytes = await chunkOf(clip.file, part.firstByte, part.lastByte - part.firstByte + 1);
    const res = await check(await fetch(part.uploadUrl, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: bytes }), 'Uploading to LinkedIn');
    partIds.push(res.headers.get('etag') ?? '');
    await res.body?.cancel();
  }
  const fin = await fetch(`${config.linkedinApiBase}/rest/videos?action=finalizeUpload`, {
    method: 'POST',
    headers: { ...rest, 'content-type': 'application/json' },
    body: JSON.stringify({ finalizeUploadRequest: { video: value.video, uploadToken: value.uploadToken, uploadedPartIds: partIds } }),
  });
  await (await check(fin, 'Finishing the LinkedIn video upload')).body?.cancel();
  const post = await fetch(`${config.linkedinApiBase}/rest/posts`, {
    method: 'POST',
    headers: { ...rest, 'content-type': 'application/json' },
    body: JSON.stringify({
      author,
      commentary: linkedinCommentary(clip.text),
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      content: { media: { title: clip.title, id: value.video } },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    }),
  });
  await check(post, 'Posting to LinkedIn');
  await post.body?.cancel();
  return post.headers.get('x-restli-id') ?? value.video;
}

/** WordPress REST API with an application password: the video into the media library, then a published post showing it. */
export async function postToWordpress(
  site: { siteUrl: string; username: string; password: string },
  clip: Clip,
  sandboxOrigins: readonly string[],
): Promise<string> {
  const auth = { authorization: `Basic ${Buffer.from(`${site.username}:${site.password}`).toString('base64')}` };
  const filename = `${clip.title.replace(/[^\w .-]+/g, ' ').trim() || 'clip'}.mp4`;
  // The subscriber's own server: checked where it resolves before each call, answers capped.
  const mediaUrl = new URL(`${site.siteUrl}/wp-json/wp/v2/media`);
  await assertPublicSite(mediaUrl, sandboxOrigins);
  const upload = await fetch(mediaUrl, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'video/mp4', 'content-disposition': `attachment; filename="${filename}"`, 'content-length': String(statSync(clip.file).size) },
    body: fileBody(clip.file),
    duplex: 'half',
    redirect: 'manual',
    signal: AbortSignal.timeout(USER_SITE_UPLOAD_TIMEOUT_MS),
  } as RequestInit);
  const media = await siteJson<{ id: number; source_url: string }>(upload, 'Uploading to WordPress');
  const escaped = String(media.source_url).replace(/"/g, '&quot;');
  const postsUrl = new URL(`${site.siteUrl}/wp-json/wp/v2/posts`);
  await assertPublicSite(postsUrl, sandboxOrigins);
  const post = await fetch(postsUrl, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: htmlText(clip.title),
      status: 'publish',
      content: `<!-- wp:video {"id":${Number(media.id)}} -->\n<figure class="wp-block-video"><video controls src="${escaped}"></video></figure>\n<!-- /wp:video -->${clip.body ? `\n${clip.body}` : ''}`,
    }),
    redirect: 'manual',
    signal: AbortSignal.timeout(USER_SITE_TIMEOUT_MS),
  });
  return String((await siteJson<{ id: number }>(post, 'Posting to WordPress')).id);
}

/** A text post (the episode's blog post) on the subscriber's WordPress, as a draft or published. */
export async function publishToWordpress(
  site: { siteUrl: string; username: string; password: string },
  post: { title: string; html: string; status: 'draft' | 'publish' },
  sandboxOrigins: readonly string[],
): Promise<{ postId: number; link: string | null }> {
  const postsUrl = new URL(`${site.siteUrl}/wp-json/wp/v2/posts`);
  await assertPublicSite(postsUrl, sandboxOrigins);
  const res = await fetch(postsUrl, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${site.username}:${site.password}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: htmlText(post.title), status: post.status, content: post.html }),
    redirect: 'manual',
    signal: AbortSignal.timeout(USER_SITE_TIMEOUT_MS),
  });
  const created = await siteJson<{ id: number; link?: string }>(res, 'Publishing the blog post to WordPress');
  return { postId: Number(created.id), link: typeof created.link === 'string' ? created.link : null };
}
