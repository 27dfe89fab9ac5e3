// Google Drive v3 and YouTube Data v3 upload endpoints, as far as the processing worker uses
// them: files.create for folders, resumable and multipart uploads (files.create and
// videos.insert), files.list by parent and name, files.get with alt=media. A Bearer token the
// OAuth sandbox issued must still work (expired or revoked: 401) and owns files as its grant
// (`grant:<id>`, the same after a refresh); any other Bearer token is accepted and is its own
// owner (tests that store a made-up token). Uploaded bytes are streamed to disk.
// `GET /_sandbox/google` answers everything held, for tests and people.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sendJson } from '../../lib/http.ts';
import { escapeHtml, htmlPage, readBody, sendHtml } from '../http.ts';
import { JsonFile } from '../persist.ts';
import type { TokenIdentity } from '../oauth/index.ts';
import type { SandboxModule, SandboxRequest } from '../types.ts';

interface DriveFileRecord {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  size: number;
  owner: string;
  createdTime: string;
  /** Set when the content was replaced (files.update). */
  modifiedTime?: string;
  /** Private key-value pairs the app that made the file set (Drive's `appProperties`). */
  appProperties?: Record<string, string>;
}

interface YouTubeVideoRecord {
  id: string;
  title: string;
  privacyStatus: string;
  size: number;
  owner: string;
  publishedAt: string;
}

interface UploadSession {
  kind: 'drive' | 'youtube';
  owner: string;
  metadata: Record<string, unknown>;
}

interface State {
  files: DriveFileRecord[];
  videos: YouTubeVideoRecord[];
}

const FOLDER = 'application/vnd.google-apps.folder';

const newId = (prefix = '') => prefix + randomBytes(12).toString('base64url');

function bearer(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match ? match[1] : null;
}

function googleError(code: number, message: string) {
  return { error: { code, message, errors: [{ message, domain: 'global', reason: code === 401 ? 'authError' : 'badRequest' }] } };
}

const unquote = (value: string) => value.replace(/\\(.)/g, '$1');

/**
 * The subset of Drive's query language the worker and tests use, clauses joined by `and`:
 * `'<id>' in parents`, `name = '<n>'`, `mimeType = '<t>'`, `trashed = false`, and
 * `appProperties has { key='<k>' and value='<v>' }`.
 */
function matches(file: DriveFileRecord, q: string | null): boolean {
  if (!q) return true;
  const quoted = `'((?:[^'\\\\]|\\\\.)*)'`;
  const property = new RegExp(`appProperties\\s+has\\s+\\{\\s*key\\s*=\\s*${quoted}\\s+and\\s+value\\s*=\\s*${quoted}\\s*\\}`, 'gi');
  for (const [, key, value] of q.matchAll(property)) {
    if (file.appProperties?.[unquote(key)] !== unquote(value)) return false;
  }
  for (const clause of q.replace(property, '').split(/\s+and\s+/i)) {
    const parent = /^'([^']+)'\s+in\s+parents$/i.exec(clause.trim());
    const name = new RegExp(`^name\\s*=\\s*${quoted}$`, 'i').exec(clause.trim());
    const mimeType = new RegExp(`^mimeType\\s*=\\s*${quoted}$`, 'i').exec(clause.trim());
    if (parent && !file.parents.includes(parent[1])) return false;
    if (name && file.name !== unquote(name[1])) return false;
    if (mimeType && file.mimeType !== unquote(mimeType[1])) return false;
  }
  return true;
}

export function createGoogleSandbox(options: { dataDir: string; baseUrl: string; identify: (token: string) => TokenIdentity | null }): SandboxModule {
  const dir = path.join(options.dataDir, 'google');
  const blobs = path.join(dir, 'blobs');
  mkdirSync(blobs, { recursive: true });
  const state: State = { files: [], videos: [] };
  const persisted = new JsonFile<State>(path.join(dir, 'state.json'), () => state);
  Object.assign(state, persisted.load() ?? {});
  const sessions = new Map<string, UploadSession>();

  const publicFile = (f: DriveFileRecord) => ({
    kind: 'drive#file',
    ...f,
    webViewLink: `${options.baseUrl}/_sandbox/google/files/${f.id}`,
  });

  async function receive(req: IncomingMessage, id: string): Promise<number> {
    const file = path.join(blobs, id);
    await pipeline(req, createWriteStream(file));
    return statSync(file).size;
  }

  function finish(session: UploadSession, id: string, size: number) {
    const now = new Date().toISOString();
    if (session.kind === 'youtube') {
      const snippet = (session.metadata.snippet ?? {}) as { title?: string };
      const status = (session.metadata.status ?? {}) as { privacyStatus?: string };
      const video = { id, title: snippet.title ?? '', privacyStatus: status.privacyStatus ?? 'private', size, owner: session.owner, publishedAt: now };
      state.videos.push(video);
      persisted.save();
      return { kind: 'youtube#video', id, snippet: { title: video.title, publishedAt: now }, status: { privacyStatus: video.privacyStatus } };
    }
    const meta = session.metadata as { name?: string; parents?: string[]; mimeType?: string; appProperties?: Record<string, string> };
    const record: DriveFileRecord = {
      id,
      name: meta.name ?? 'Untitled',
      mimeType: meta.mimeType ?? 'application/octet-stream',
      parents: meta.parents ?? [],
      size,
      owner: session.owner,
      createdTime: now,
      ...(meta.appProperties ? { appProperties: meta.appProperties } : {}),
    };
    state.files.push(record);
    persisted.save();
    return publicFile(record);
  }

  async function handleUpload(request: SandboxRequest, owner: string, kind: UploadSession['kind']): Promise<void> {
    const { req, res, method, url } = request;
    const uploadType = url.searchParams.get('uploadType');
    const uploadId = url.searchParams.get('upload_id');
    if (method === 'PUT' && uploadId) {
      const session = sessions.get(uploadId);
      if (!session || session.owner !== owner) {
        req.resume();
        return sendJson(res, 404, googleError(404, 'Upload session not found.'));
      }
      const id = newId(kind === 'youtube' ? 'yt_' : '');
      const size = await receive(req, id);
      sessions.delete(uploadId);
      return sendJson(res, 200, finish(session, id, size));
    }
    if (method === 'POST' && uploadType === 'resumable') {
      const metadata = JSON.parse((await readBody(req)).toString('utf8') || '{}') as Record<string, unknown>;
      const id = newId('up_');
      sessions.set(id, { kind, owner, metadata });
      const location = new URL(url.pathname, options.baseUrl);
      location.searchParams.set('uploadType', 'resumable');
      location.searchParams.set('upload_id', id);
      res.writeHead(200, { location: location.toString(), 'content-length': '0' });
      res.end();
      return;
    }
    if (method === 'POST' && uploadType === 'multipart') {
      // multipart/related: a JSON metadata part, then the media part.
      const boundary = /boundary="?([^";]+)"?/.exec(req.headers['content-type'] ?? '')?.[1];
      const body = await readBody(req, 512 * 1024 * 1024);
      if (!boundary) return sendJson(res, 400, googleError(400, 'Missing multipart boundary.'));
      const parts = body.toString('latin1').split(`--${boundary}`).slice(1, -1);
      const split = (part: string) => {
        const at = part.indexOf('\r\n\r\n');
        return part.slice(at + 4, part.endsWith('\r\n') ? -2 : undefined);
      };
      if (parts.length < 2) return sendJson(res, 400, googleError(400, 'Expected metadata and media parts.'));
      const metadata = JSON.parse(split(parts[0])) as Record<string, unknown>;
      const id = newId(kind === 'youtube' ? 'yt_' : '');
      const media = Buffer.from(split(parts[1]), 'latin1');
      await pipeline(async function* () { yield media; }, createWriteStream(path.join(blobs, id)));
      return sendJson(res, 200, finish({ kind, owner, metadata }, id, media.length));
    }
    req.resume();
    return sendJson(res, 400, googleError(400, `Unsupported upload ${method} uploadType=${uploadType}`));
  }

  /** files.update with uploadType=media: the file's content replaced, its id and name kept (Drive's own behaviour). */
  async function handleReplace(request: SandboxRequest, owner: string): Promise<void> {
    const { req, res, method, url } = request;
    const id = decodeURIComponent(url.pathname.slice('/upload/drive/v3/files/'.length));
    const file = state.files.find((f) => f.id === id && f.mimeType !== FOLDER);
    if (method !== 'PATCH' || url.searchParams.get('uploadType') !== 'media') {
      req.resume();
      return sendJson(res, 400, googleError(400, `Unsupported upload ${method} uploadType=${url.searchParams.get('uploadType')}`));
    }
    if (!file || file.owner !== owner) {
      req.resume();
      return sendJson(res, 404, googleError(404, `File not found: ${id}.`));
    }
    file.size = await receive(req, file.id);
    file.modifiedTime = new Date().toISOString();
    persisted.save();
    return sendJson(res, 200, publicFile(file));
  }

  return {
    name: 'Google Drive and YouTube',
    routes(routes) {
      routes
        .on('GET', '/_sandbox/google', ({ res }) => sendJson(res, 200, { files: state.files.map(publicFile), videos: state.videos }))
        .on('POST', '/_sandbox/google/reset', ({ res }) => {
          state.files = [];
          state.videos = [];
          rmSync(blobs, { recursive: true, force: true });
          mkdirSync(blobs, { recursive: true });
          persisted.save();
          sendJson(res, 200, { ok: true });
        })
        // A file's webViewLink: Drive's viewer page stands in as a player (the episode page frames
        // it as its preview), and its bytes. Open like a shared link: this is a local sandbox.
        .on('GET', '/_sandbox/google/files/:id', ({ res, params }) => {
          const file = state.files.find((f) => f.id === params.id);
          if (!file) return sendHtml(res, 404, htmlPage('Not found', '<p>No such file.</p>'));
          const body =
            file.mimeType === FOLDER
              ? `<h1>${escapeHtml(file.name)}</h1><ul>${state.files.filter((f) => f.parents.includes(file.id)).map((f) => `<li><a href="/_sandbox/google/files/${encodeURIComponent(f.id)}">${escapeHtml(f.name)}</a></li>`).join('')}</ul>`
              : `<h1>${escapeHtml(file.name)}</h1><video controls preload="metadata" style="max-width:100%;max-height:80vh" src="/_sandbox/google/files/${encodeURIComponent(file.id)}/content"></video>`;
          sendHtml(res, 200, htmlPage(file.name, body));
        })
        .on('GET', '/_sandbox/google/files/:id/content', async ({ res, params }) => {
          const file = state.files.find((f) => f.id === params.id && f.mimeType !== FOLDER);
          if (!file) return sendJson(res, 404, googleError(404, `File not found: ${params.id}.`));
          res.writeHead(200, { 'content-type': file.mimeType, 'content-length': String(file.size) });
          await pipeline(createReadStream(path.join(blobs, file.id)), res);
        });

      /**
       * Google's APIs: the bearer token's grant (or the token itself) names the owner; an expired
       * or revoked token is refused; the rest of a body is discarded on a refusal.
       */
      const google = (handler: (request: SandboxRequest, owner: string) => unknown) => (request: SandboxRequest) => {
        const token = bearer(request.req);
        const identity = token ? options.identify(token) : null;
        if (token && identity?.valid !== false) return handler(request, identity?.owner ?? token);
        request.req.resume();
        const message = token ? 'Request had invalid authentication credentials.' : 'Request is missing required authentication credential.';
        sendJson(request.res, 401, googleError(401, message));
      };
      const noRoute = google(({ req, res, method, url }) => {
        req.resume();
        sendJson(res, 404, googleError(404, `No sandbox route for ${method} ${url.pathname}`));
      });

      routes
        .streamed('/upload/drive/v3/files', google((request, owner) => handleUpload(request, owner, 'drive')))
        .streamed('/upload/drive/v3/files/:id', google((request, owner) => handleReplace(request, owner)))
        .streamed('/upload/youtube/v3/videos', google((request, owner) => handleUpload(request, owner, 'youtube')))
        .streamed('/upload/drive/v3/*', noRoute)
        .streamed('/upload/youtube/v3/*', noRoute)
        .all('/drive/v3/*', noRoute)
        .all('/youtube/v3/*', noRoute);

      routes.on('POST', '/drive/v3/files', google(({ res, body }, owner) => {
        const meta = JSON.parse(body.toString('utf8') || '{}') as { name?: string; mimeType?: string; parents?: string[]; appProperties?: Record<string, string> };
        const record: DriveFileRecord = {
          id: newId(),
          name: meta.name ?? 'Untitled',
          mimeType: meta.mimeType ?? FOLDER,
          parents: meta.parents ?? [],
          size: 0,
          owner,
          createdTime: new Date().toISOString(),
          ...(meta.appProperties ? { appProperties: meta.appProperties } : {}),
        };
        state.files.push(record);
        persisted.save();
        sendJson(res, 200, publicFile(record));
      }));
      routes.on('GET', '/drive/v3/files', google(({ res, url }, owner) => {
        const q = url.searchParams.get('q');
        const files = state.files.filter((f) => f.owner === owner && matches(f, q)).map(publicFile);
        sendJson(res, 200, { kind: 'drive#fileList', files });
      }));
      routes.on('GET', '/drive/v3/files/:id', google(async ({ res, url, params }, owner) => {
        const file = state.files.find((f) => f.id === params.id && f.owner === owner);
        if (!file) return sendJson(res, 404, googleError(404, `File not found: ${params.id}.`));
        if (url.searchParams.get('alt') !== 'media') return sendJson(res, 200, publicFile(file));
        res.writeHead(200, { 'content-type': file.mimeType, 'content-length': String(file.size) });
        await pipeline(createReadStream(path.join(blobs, file.id)), res);
      }));
    },
    homeSection() {
      const rows = state.files
        .slice(-50)
        .reverse()
        .map((f) => `<tr><td>${escapeHtml(f.name)}</td><td>${escapeHtml(f.mimeType === FOLDER ? 'folder' : `${f.size} bytes`)}</td><td><code>${escapeHtml(f.parents.join(', '))}</code></td><td>${escapeHtml(f.createdTime)}</td></tr>`)
        .join('');
      const posts = state.videos
        .slice(-50)
        .reverse()
        .map((v) => `<tr><td>${escapeHtml(v.title)}</td><td>${escapeHtml(v.privacyStatus)}</td><td>${escapeHtml(v.publishedAt)}</td></tr>`)
        .join('');
      return `<h2>Google Drive</h2>
<table><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Parents</th><th scope="col">Created</th></tr></thead><tbody>${rows || '<tr><td colspan="4">No files yet</td></tr>'}</tbody></table>
<h2>YouTube posts</h2>
<table><thead><tr><th scope="col">Title</th><th scope="col">Privacy</th><th scope="col">Published</th></tr></thead><tbody>${posts || '<tr><td colspan="3">No posts yet</td></tr>'}</tbody></table>`;
    },
    async stop() {
      persisted.flush();
    },
  };
}
