// X API v2 media uploads (initialize, append, finalize, STATUS) and tweets.
import { sendJson } from '../../lib/http.ts';
import { readBody } from '../http.ts';
import type { SandboxRequest } from '../types.ts';
import { json, newId, type SocialStore } from './store.ts';

const MAX_PART = 8 * 1024 * 1024;

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

export function xHandlers({ media, failing, record }: SocialStore) {
  const xInvalid = (res: SandboxRequest['res'], message: string) => sendJson(res, 400, { errors: [{ message }], title: 'Invalid Request', status: 400 });
  const xNotFound = ({ res }: SandboxRequest) => sendJson(res, 404, { title: 'Not Found', status: 404 });

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

  return { xInitialize, xAppend, xFinalize, xStatus, xTweet, xNotFound };
}
