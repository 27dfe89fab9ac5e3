// Where the processing worker posts clips, besides YouTube (drive/index.ts), imitating each
// platform's real paths and shapes:
//   X API v2        POST /2/media/upload/initialize {media_type, total_bytes, media_category}
//                   POST /2/media/upload/<id>/append (multipart: media, segment_index)
//                   POST /2/media/upload/<id>/finalize, GET /2/media/upload?command=STATUS&media_id=
//                   POST /2/tweets {text, media: {media_ids}}
//   LinkedIn        GET /v2/userinfo (the member's `sub`)
//                   POST /rest/videos?action=initializeUpload, PUT <uploadUrl> (one per part,
//                   answers an ETag), POST /rest/videos?action=finalizeUpload, POST /rest/posts
//                   (201 with x-restli-id); /rest calls need LinkedIn-Version and
//                   X-Restli-Protocol-Version 2.0.0
//   WordPress REST  POST /wordpress/<site>/wp-json/wp/v2/media (binary body, Content-Disposition)
//                   POST /wordpress/<site>/wp-json/wp/v2/posts, Basic auth (application password)
// X and LinkedIn take only access tokens the OAuth sandbox issued and that still work.
// Sandbox-only: GET /_sandbox/social (every post), POST /_sandbox/social/fail-next
// {platform, count} (the platform's next post-creating calls answer 503).
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { sendJson } from '../../lib/http.ts';
import { escapeHtml, readBody } from '../http.ts';
import { SANDBOX_WORDPRESS_USER, type TokenIdentity } from '../oauth/index.ts';
import { JsonFile } from '../persist.ts';
import type { SandboxModule, SandboxRequest } from '../types.ts';

type Platform = 'x' | 'linkedin' | 'wordpress';

interface SocialPostRecord {
  platform: Platform;
  id: string;
  owner: string;
  text: string;
  mediaBytes: number;
  mediaSha256: string;
  createdAt: string;
}

interface Media {
  platform: Platform;
  owner: string;
  declaredBytes: number;
  /** Received parts by index (X segments, LinkedIn parts). */
  parts: Map<number, Buffer>;
  finalized: boolean;
}

interface State {
  posts: SocialPostRecord[];
}

const MAX_PART = 8 * 1024 * 1024;
const LINKEDIN_PART = 4 * 1024 * 1024;

const newId = () => BigInt(`0x${randomBytes(7).toString('hex')}`).toString();
/** WordPress ids are small integers (JSON numbers, exact). */
const wordpressId = () => String(randomBytes(4).readUInt32BE() >>> 1);

function bearer(req: IncomingMessage): string | null {
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;
}

/** The parts of a multipart/form-data body, by field name. */
function formParts(body: Buffer, contentType: string): Map<string, Buffer> {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  const fields = new Map<string, Buffer>();
  if (!boundary) return fields;
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(at + delimiter.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const name = /name="([^"]+)"/.exec(part.subarray(0, split).toString('utf8'))?.[1];
    if (name) fields.set(name, part.subarray(split + 4));
    at = next;
  }
  return fields;
}

export function createSocialSandbox(options: { dataDir: string; baseUrl: string; identify: (token: string) => TokenIdentity | null }): SandboxModule {
  const state: State = { posts: [] };
  const persisted = new JsonFile<State>(path.join(options.dataDir, 'social.json'), () => state);
  Object.assign(state, persisted.load() ?? {});
  const media = new Map<string, Media>();
  const failNext: Partial<Record<Platform, number>> = {};

  /** True (and counted down) when the platform's next post-creating call must fail. */
  function failing(platform: Platform): boolean {
    if (!failNext[platform]) return false;
    failNext[platform] -= 1;
    return true;
  }

  function record(platform: Platform, owner: string, text: string, item: Media): SocialPostRecord {
    const bytes = Buffer.concat([...item.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part));
    const post: SocialPostRecord = {
      platform,
      id: platform === 'wordpress' ? wordpressId() : newId(),
      owner,
      text,
      mediaBytes: bytes.length,
      mediaSha256: createHash('sha256').update(bytes).digest('hex'),
      createdAt: new Date().toISOString(),
    };
    state.posts.push(post);
    persisted.save();
    return post;
  }

  /** The token's owner when the OAuth sandbox issued it for `platform` and it still works. */
  function authorised(request: SandboxRequest, platform: 'x' | 'linkedin'): string | null {
    const token = bearer(request.req);
    const identity = token ? options.identify(token) : null;
    if (identity?.valid && identity.provider === platform) return identity.owner;
    request.req.resume();
    if (platform === 'x') sendJson(request.res, 401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    else sendJson(request.res, 401, { status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' });
    return null;
  }

  const json = (body: Buffer) => JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
  const xInvalid = (res: SandboxRequest['res'], message: string) => sendJson(res, 400, { errors: [{ message }], title: 'Invalid Request', status: 400 });
  const xNotFound = ({ res }: SandboxRequest) => sendJson(res, 404, { title: 'Not Found', status: 404 });
  const linkedinNotFound = ({ res }: SandboxRequest) => sendJson(res, 404, { status: 404, message: 'Not Found' });
  const memberId = (owner: string) => owner.replace(/^grant:/, '');

  /** X and LinkedIn calls: the handler runs for the token's owner, or the call is refused. */
  const withToken =
    (platform: 'x' | 'linkedin', handler: (request: SandboxRequest, owner: string) => unknown) =>
    (request: SandboxRequest) => {
      const owner = authorised(request, platform);
      return owner ? handler(request, owner) : undefined;
    };

  /** LinkedIn's versioned /rest API refuses calls without its version headers. */
  const linkedinRest = (handler: (request: SandboxRequest, owner: string) => unknown) =>
    withToken('linkedin', (request, owner) => {
      const { req, res } = request;
      if (req.headers['linkedin-version'] && req.headers['x-restli-protocol-version'] === '2.0.0') return handler(request, owner);
      req.resume();
      sendJson(res, 400, { status: 400, code: 'VERSION_MISSING', message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.' });
    });

  async function xInitialize({ req, res }: SandboxRequest, owner: string): Promise<void> {
    const body = json(await readBody(req));
    if (body.media_type !== 'video/mp4' || !Number.isInteger(body.total_bytes)) return xInvalid(res, 'media_type and total_bytes are required');
    const id = newId();
    media.set(id, { platform: 'x', owner, declaredBytes: body.total_bytes as number, parts: new Map(), finalized: false });
    sendJson(res, 200, { data: { id, media_key: `7_${id}`, expires_after_secs: 86400 } });
  }

  async function xAppend({ req, res, params }: SandboxRequest, owner: string): Promise<void> {
    const item = media.get(params.id);
    const body = await readBody(req, MAX_PART + 64 * 1024);
    if (!item || item.owner !== owner) return xInvalid(res, 'Invalid media_id');
    const fields = formParts(body, req.headers['content-type'] ?? '');
    const chunk = fields.get('media');
    const index = Number(fields.get('segment_index')?.toString());
    if (!chunk || !Number.isInteger(index)) return xInvalid(res, 'media and segment_index are required');
    item.parts.set(index, chunk);
    sendJson(res, 200, { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 } });
  }

  async function xFinalize({ req, res, params }: SandboxRequest, owner: string): Promise<void> {
    const item = media.get(params.id);
    await readBody(req, MAX_PART + 64 * 1024);
    if (!item || item.owner !== owner) return xInvalid(res, 'Invalid media_id');
    const size = [...item.parts.values()].reduce((sum, part) => sum + part.length, 0);
    if (size !== item.declaredBytes) return xInvalid(res, `File size mismatch: ${size} of ${item.declaredBytes} bytes`);
    item.finalized = true;
    // Videos are processed asynchronously: the caller polls STATUS before posting.
    sendJson(res, 200, { data: { id: params.id, media_key: `7_${params.id}`, size, expires_after_secs: 86400, processing_info: { state: 'pending', check_after_secs: 1 } } });
  }

  function xStatus(request: SandboxRequest, owner: string): void {
    const { res, url } = request;
    if (url.searchParams.get('command') !== 'STATUS') return xNotFound(request);
    const id = url.searchParams.get('media_id') ?? '';
    const item = media.get(id);
    if (!item || item.owner !== owner) return sendJson(res, 400, { errors: [{ message: 'Invalid media_id' }], status: 400 });
    sendJson(res, 200, { data: { id, media_key: `7_${id}`, processing_info: { state: item.finalized ? 'succeeded' : 'pending', progress_percent: item.finalized ? 100 : 0 } } });
  }

  function xTweet({ res, body: raw }: SandboxRequest, owner: string): void {
    const body = json(raw) as { text?: string; media?: { media_ids?: string[] } };
    if (failing('x')) return sendJson(res, 503, { title: 'Service Unavailable', status: 503, detail: 'Service Unavailable' });
    const item = media.get(body.media?.media_ids?.[0] ?? '');
    if (!item || !item.finalized || item.owner !== owner) return xInvalid(res, 'Your media IDs are invalid.');
    const post = record('x', owner, body.text ?? '', item);
    sendJson(res, 201, { data: { id: post.id, text: post.text, edit_history_tweet_ids: [post.id] } });
  }

  function linkedinUserinfo(request: SandboxRequest, owner: string): void {
    if (request.method !== 'GET') return linkedinNotFound(request);
    sendJson(request.res, 200, { sub: memberId(owner), name: 'Sandbox Member', email_verified: true });
  }

  function linkedinVideos(request: SandboxRequest, owner: string): void {
    const { res, url } = request;
    const body = json(request.body);
    const action = url.searchParams.get('action');
    if (action === 'initializeUpload') {
      const init = (body.initializeUploadRequest ?? {}) as { owner?: string; fileSizeBytes?: number };
      if (init.owner !== `urn:li:person:${memberId(owner)}` || !Number.isInteger(init.fileSizeBytes)) {
        return sendJson(res, 403, { status: 403, message: `Not enough permissions to upload for ${init.owner}` });
      }
      const id = newId();
      const size = init.fileSizeBytes as number;
      media.set(id, { platform: 'linkedin', owner, declaredBytes: size, parts: new Map(), finalized: false });
      const uploadInstructions = [];
      for (let first = 0, i = 0; first < size || i === 0; first += LINKEDIN_PART, i += 1) {
        uploadInstructions.push({ uploadUrl: `${options.baseUrl}/_sandbox/social/linkedin-upload/${id}/${i}`, firstByte: first, lastByte: Math.min(size, first + LINKEDIN_PART) - 1 });
      }
      return sendJson(res, 200, { value: { uploadUrlsExpireAt: Date.now() + 86_400_000, video: `urn:li:video:${id}`, uploadInstructions, uploadToken: '' } });
    }
    if (action === 'finalizeUpload') {
      const fin = (body.finalizeUploadRequest ?? {}) as { video?: string; uploadedPartIds?: string[] };
      const item = media.get((fin.video ?? '').replace('urn:li:video:', ''));
      const etags = item ? [...item.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => createHash('md5').update(part).digest('hex')) : [];
      if (!item || item.owner !== owner || JSON.stringify(etags) !== JSON.stringify(fin.uploadedPartIds ?? [])) {
        return sendJson(res, 400, { status: 400, message: 'uploadedPartIds do not match the uploaded parts' });
      }
      item.finalized = true;
      res.writeHead(200).end();
      return;
    }
    linkedinNotFound(request);
  }

  function linkedinPost({ res, body: raw }: SandboxRequest, owner: string): void {
    const body = json(raw) as { author?: string; commentary?: string; content?: { media?: { id?: string } } };
    if (failing('linkedin')) return sendJson(res, 503, { status: 503, message: 'Service Unavailable' });
    const item = media.get((body.content?.media?.id ?? '').replace('urn:li:video:', ''));
    if (body.author !== `urn:li:person:${memberId(owner)}` || !item || !item.finalized) {
      return sendJson(res, 422, { status: 422, message: 'ERROR :: /content/media/id :: invalid video or author' });
    }
    const post = record('linkedin', owner, body.commentary ?? '', item);
    res.writeHead(201, { 'x-restli-id': `urn:li:share:${post.id}` }).end();
  }

  async function linkedinUpload({ req, res, params }: SandboxRequest): Promise<void> {
    const item = media.get(params.id);
    const body = await readBody(req, LINKEDIN_PART + 1024);
    if (!item) return sendJson(res, 404, { status: 404, message: 'Unknown upload' });
    item.parts.set(Number(params.index), body);
    res.writeHead(201, { etag: createHash('md5').update(body).digest('hex') }).end();
  }

  /** WordPress calls: the handler runs for the site when the Basic credentials are the sandbox user's. */
  const wordpress = (handler: (request: SandboxRequest, site: string) => unknown) => (request: SandboxRequest) => {
    const header = request.req.headers.authorization ?? '';
    const [username, ...rest] = header.toLowerCase().startsWith('basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':') : [''];
    const user = SANDBOX_WORDPRESS_USER;
    if (username === user.username && rest.join(':').replace(/\s+/g, '') === user.password.replace(/\s+/g, '')) return handler(request, request.params.site);
    request.req.resume();
    sendJson(request.res, 401, { code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } });
  };
  const siteUrl = (site: string) => `${options.baseUrl}/wordpress/${site}`;

  async function wordpressMedia({ req, res }: SandboxRequest, site: string): Promise<void> {
    const filename = /filename="?([^";]+)"?/.exec(req.headers['content-disposition'] ?? '')?.[1];
    const body = await readBody(req, 512 * 1024 * 1024);
    if (!filename) return sendJson(res, 400, { code: 'rest_upload_no_content_disposition', message: 'No Content-Disposition supplied.', data: { status: 400 } });
    const id = wordpressId();
    media.set(id, { platform: 'wordpress', owner: `wordpress:${site}`, declaredBytes: body.length, parts: new Map([[0, body]]), finalized: true });
    sendJson(res, 201, {
      id: Number(id),
      media_type: 'file',
      mime_type: req.headers['content-type'],
      source_url: `${siteUrl(site)}/wp-content/uploads/${encodeURIComponent(filename)}`,
      title: { raw: filename, rendered: escapeHtml(filename) },
    });
  }

  function wordpressPost({ res, body: raw }: SandboxRequest, site: string): void {
    const body = json(raw) as { title?: string; content?: string; status?: string };
    if (failing('wordpress')) return sendJson(res, 503, { code: 'http_request_failed', message: 'Service Unavailable', data: { status: 503 } });
    // The worker embeds the video as a core/video block: <!-- wp:video {"id":123} -->.
    const item = media.get(/wp:video \{"id":(\d+)/.exec(body.content ?? '')?.[1] ?? '');
    if (!item || item.owner !== `wordpress:${site}`) return sendJson(res, 400, { code: 'rest_invalid_param', message: 'The post embeds no uploaded video.', data: { status: 400 } });
    const post = record('wordpress', `wordpress:${site}`, body.title ?? '', item);
    sendJson(res, 201, { id: Number(post.id), link: `${siteUrl(site)}/?p=${post.id}`, status: body.status ?? 'draft', title: { raw: post.text, rendered: escapeHtml(post.text) } });
  }

  return {
    name: 'X, LinkedIn and WordPress posts',
    routes(routes) {
      routes
        .on('GET', '/_sandbox/social', ({ res }) => sendJson(res, 200, { posts: state.posts }))
        .on('POST', '/_sandbox/social/fail-next', ({ res, body }) => {
          const { platform, count } = json(body) as { platform: Platform; count?: number };
          failNext[platform] = count ?? 1;
          sendJson(res, 200, { platform, count: failNext[platform] });
        })
        .streamed('/_sandbox/social/linkedin-upload/:id(^\\d+$)/:index(^\\d+$)', linkedinUpload, 'PUT');

      // X API v2: media ids are numbers; any other path under /2/ is X's 404.
      routes
        .streamed('/2/media/upload/initialize', withToken('x', xInitialize), 'POST')
        .streamed('/2/media/upload/:id(^\\d+$)/append', withToken('x', xAppend), 'POST')
        .streamed('/2/media/upload/:id(^\\d+$)/finalize', withToken('x', xFinalize), 'POST')
        .on('GET', '/2/media/upload', withToken('x', xStatus))
        .on('POST', '/2/tweets', withToken('x', xTweet))
        .all('/2/*', withToken('x', xNotFound));

      routes
        .all('/v2/userinfo', withToken('linkedin', linkedinUserinfo))
        .on('POST', '/rest/videos', linkedinRest(linkedinVideos))
        .on('POST', '/rest/posts', linkedinRest(linkedinPost))
        .all('/rest/*', linkedinRest(linkedinNotFound));

      routes
        .streamed('/wordpress/:site/wp-json/wp/v2/media', wordpress(wordpressMedia), 'POST')
        .on('POST', '/wordpress/:site/wp-json/wp/v2/posts', wordpress(wordpressPost));
    },
    homeSection() {
      const rows = state.posts
        .slice(-50)
        .reverse()
        .map((post) => `<tr><td>${escapeHtml(post.platform)}</td><td>${escapeHtml(post.text)}</td><td>${post.mediaBytes} bytes</td><td>${escapeHtml(post.createdAt)}</td></tr>`)
        .join('');
      return `<h2>X, LinkedIn and WordPress posts</h2>
<table><thead><tr><th scope="col">Platform</th><th scope="col">Text</th><th scope="col">Video</th><th scope="col">Posted</th></tr></thead><tbody>${rows || '<tr><td colspan="4">No posts yet</td></tr>'}</tbody></table>`;
    },
    async stop() {
      persisted.flush();
    },
  };
}
