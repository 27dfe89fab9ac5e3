// WordPress REST: media uploads and posts on a sandbox site, with the sandbox user's application password.
import { sendJson } from '../../lib/http.ts';
import { escapeHtml, readBody } from '../http.ts';
import { SANDBOX_WORDPRESS_USER } from '../oauth/index.ts';
import type { SandboxRequest } from '../types.ts';
import { json, wordpressId, type Media, type SocialStore } from './store.ts';

export function wordpressHandlers({ media, failing, record }: SocialStore, baseUrl: string) {
  /** WordPress calls: the handler runs for the site when the Basic credentials are the sandbox user's. */
  const wordpress = (handler: (request: SandboxRequest, site: string) => unknown) => (request: SandboxRequest) => {
    const header = request.req.headers.authorization ?? '';
    const [username, ...rest] = header.toLowerCase().startsWith('basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':') : [''];
    const user = SANDBOX_WORDPRESS_USER;
    if (username === user.username && rest.join(':').replace(/\s+/g, '') === user.password.replace(/\s+/g, '')) return handler(request, request.params.site);
    request.req.resume();
    sendJson(request.res, 401, { code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } });
  };
  const siteUrl = (site: string) => `${baseUrl}/wordpress/${site}`;

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

  const textOnly: Media = { platform: 'wordpress', owner: '', declaredBytes: 0, parts: new Map(), finalized: true };

  function wordpressPost({ res, body: raw }: SandboxRequest, site: string): void {
    const body = json(raw) as { title?: string; content?: string; status?: string };
    if (failing('wordpress')) return sendJson(res, 503, { code: 'http_request_failed', message: 'Service Unavailable', data: { status: 503 } });
    // A clip's post embeds its video as a core/video block: <!-- wp:video {"id":123} -->; the
    // episode's blog post is text only.
    const videoId = /wp:video \{"id":(\d+)/.exec(body.content ?? '')?.[1];
    const item = videoId === undefined ? textOnly : media.get(videoId);
    if (!item || (item !== textOnly && item.owner !== `wordpress:${site}`)) return sendJson(res, 400, { code: 'rest_invalid_param', message: 'The post embeds no uploaded video.', data: { status: 400 } });
    const status = body.status === 'publish' ? 'publish' : 'draft';
    const post = record('wordpress', `wordpress:${site}`, body.title ?? '', item, { content: body.content ?? '', status });
    sendJson(res, 201, { id: Number(post.id), link: `${siteUrl(site)}/?p=${post.id}`, status, title: { raw: post.text, rendered: escapeHtml(post.text) } });
  }

  return { wordpress, wordpressMedia, wordpressPost };
}
