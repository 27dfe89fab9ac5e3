// LinkedIn: the member's userinfo, the versioned /rest video upload and posts, and the upload URLs' parts.
import { createHash } from 'node:crypto';
import { sendJson } from '../../lib/http.ts';
import { readBody } from '../http.ts';
import type { SandboxRequest } from '../types.ts';
import { json, newId, type SocialStore } from './store.ts';
import type { WithToken } from './tokens.ts';

const LINKEDIN_PART = 4 * 1024 * 1024;

export function linkedinHandlers({ media, failing, record }: SocialStore, withToken: WithToken, baseUrl: string) {
  const linkedinNotFound = ({ res }: SandboxRequest) => sendJson(res, 404, { status: 404, message: 'Not Found' });
  const memberId = (owner: string) => owner.replace(/^grant:/, '');

  /** LinkedIn's versioned /rest API refuses calls without its version headers. */
  const linkedinRest = (handler: (request: SandboxRequest, owner: string) => unknown) =>
    withToken('linkedin', (request, owner) => {
      const { req, res } = request;
      if (req.headers['linkedin-version'] && req.headers['x-restli-protocol-version'] === '2.0.0') return handler(request, owner);
      req.resume();
      sendJson(res, 400, { status: 400, code: 'VERSION_MISSING', message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.' });
    });

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
        uploadInstructions.push({ uploadUrl: `${baseUrl}/_sandbox/social/linkedin-upload/${id}/${i}`, firstByte: first, lastByte: Math.min(size, first + LINKEDIN_PART) - 1 });
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

  return { linkedinNotFound, linkedinRest, linkedinUserinfo, linkedinVideos, linkedinPost, linkedinUpload };
}
