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
import type { SandboxModule, SandboxRequest, SandboxRoutes } from '../types.ts';

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
  description: string;
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

type DriveMetadata = { name?: string; mimeType?: string; parents?: string[]; appProperties?: Record<string, string> };

/** What the sandbox holds: the records (state.json) and the uploaded bytes (blobs/, one file per id). */
class GoogleStore {
  readonly state: State = { files: [], videos: [] };
  readonly blobs: string;
  /** Resumable upload sessions, by upload id (not kept across restarts). */
  readonly sessions = new Map<string, UploadSession>();
  private readonly persisted: JsonFile<State>;

  constructor(
    dataDir: string,
    private readonly baseUrl: string,
  ) {
    const dir = path.join(dataDir, 'google');
    this.blobs = path.join(dir, 'blobs');
    mkdirSync(this.blobs, { recursive: true });
    this.persisted = new JsonFile<State>(path.join(dir, 'state.json'), () => this.state);
    Object.assign(this.state, this.persisted.load() ?? {});
  }

  save(): void {
    this.persisted.save();
  }

  flush(): void {
    this.persisted.flush();
  }

  blob(id: string): string {
    return path.join(this.blobs, id);
  }

  /** Streams a request's body to the blob of `id`; answers its size. */
  async receive(req: IncomingMessage, id: string): Promise<number> {
    await pipeline(req, createWriteStream(this.blob(id)));
    return statSync(this.blob(id)).size;
  }

  publicFile(f: DriveFileRecord) {
    return { kind: 'drive#file', ...f, webViewLink: `${this.baseUrl}/_sandbox/google/files/${f.id}` };
  }

  /** Stores a Drive file (a folder unless the metadata names another type) as Drive answers it. */
  addFile(meta: DriveMetadata, fields: { id: string; size: number; owner: string; defaultMimeType: string }) {
    const record: DriveFileRecord = {
      id: fields.id,
      name: meta.name ?? 'Untitled',
      mimeType: meta.mimeType ?? fields.defaultMimeType,
      parents: meta.parents ?? [],
      size: fields.size,
      owner: fields.owner,
      createdTime: new Date().toISOString(),
      ...(meta.appProperties ? { appProperties: meta.appProperties } : {}),
    };
    this.state.files.push(record);
    this.save();
    return this.publicFile(record);
  }

  reset(): void {
    this.state.files = [];
    this.state.videos = [];
    rmSync(this.blobs, { recursive: true, force: true });
    mkdirSync(this.blobs, { recursive: true });
    this.save();
  }
}

/** The record of a finished upload: a YouTube video or a Drive file, as the API answers it. */
function finishUpload(store: GoogleStore, session: UploadSession, id: string, size: number) {
  if (session.kind === 'youtube') {
    const now = new Date().toISOString();
    const snippet = (session.metadata.snippet ?? {}) as { title?: string; description?: string };
    const status = (session.metadata.status ?? {}) as { privacyStatus?: string };
    const video = { id, title: snippet.title ?? '', description: snippet.description ?? '', privacyStatus: status.privacyStatus ?? 'private', size, owner: session.owner, publishedAt: now };
    store.state.videos.push(video);
    store.save();
    return { kind: 'youtube#video', id, snippet: { title: video.title, description: video.description, publishedAt: now }, status: { privacyStatus: video.privacyStatus } };
  }
  return store.addFile(session.metadata as DriveMetadata, { id, size, owner: session.owner, defaultMimeType: 'application/octet-stream' });
}

async function handleUpload(store: GoogleStore, baseUrl: string, request: SandboxRequest, owner: string, kind: UploadSession['kind']): Promise<void> {
  const { req, res, method, url } = request;
  const uploadType = url.searchParams.get('uploadType');
  const uploadId = url.searchParams.get('upload_id');
  if (method === 'PUT' && uploadId) {
    const session = store.sessions.get(uploadId);
    if (!session || session.owner !== owner) {
      req.resume();
      return sendJson(res, 404, googleError(404, 'Upload session not found.'));
    }
    const id = newId(kind === 'youtube' ? 'yt_' : '');
    const size = await store.receive(req, id);
    store.sessions.delete(uploadId);
    return sendJson(res, 200, finishUpload(store, session, id, size));
  }
  if (method === 'POST' && uploadType === 'resumable') {
    const metadata = JSON.parse((await readBody(req)).toString('utf8') || '{}') as Record<string, unknown>;
    const id = newId('up_');
    store.sessions.set(id, { kind, owner, metadata });
    const location = new URL(url.pathname, baseUrl);
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
    await pipeline(async function* () { yield media; }, createWriteStream(store.blob(id)));
    return sendJson(res, 200, finishUpload(store, { kind, owner, metadata }, id, media.length));
  }
  req.resume();
  return sendJson(res, 400, googleError(400, `Unsupported upload ${method} uploadType=${uploadType}`));
}

/** files.update with uploadType=media: the file's content replaced, its id and name kept (Drive's own behaviour). */
async function handleReplace(store: GoogleStore, request: SandboxRequest, owner: string): Promise<void> {
  const { req, res, method, url } = request;
  const id = decodeURIComponent(url.pathname.slice('/upload/drive/v3/files/'.length));
  const file = store.state.files.find((f) => f.id === id && f.mimeType !== FOLDER);
  if (method !== 'PATCH' || url.searchParams.get('uploadType') !== 'media') {
    req.resume();
    return sendJson(res, 400, googleError(400, `Unsupported upload ${method} uploadType=${url.searchParams.get('uploadType')}`));
  }
  if (!file || file.owner !== owner) {
    req.resume();
    return sendJson(res, 404, googleError(404, `File not found: ${id}.`));
  }
  file.size = await store.receive(req, file.id);
  file.modifiedTime = new Date().toISOString();
  store.save();
  return sendJson(res, 200, store.publicFile(file));
}

/** The sandbox's own pages: everything held (and its reset), and each file's viewer and bytes. */
function sandboxPages(routes: SandboxRoutes, store: GoogleStore): void {
  routes
    .on('GET', '/_sandbox/google', ({ res }) => sendJson(res, 200, { files: store.state.files.map((f) => store.publicFile(f)), videos: store.state.videos }))
    .on('POST', '/_sandbox/google/reset', ({ res }) => {
      store.reset();
      sendJson(res, 200, { ok: true });
    })
    // A file's webViewLink: Drive's viewer page stands in as a player (the episode page frames
    // it as its preview), and its bytes. Open like a shared link: this is a local sandbox.
    .on('GET', '/_sandbox/google/files/:id', ({ res, params }) => {
      const file = store.state.files.find((f) => f.id === params.id);
      if (!file) return sendHtml(res, 404, htmlPage('Not found', '<p>No such file.</p>'));
      const body =
        file.mimeType === FOLDER
          ? `<h1>${escapeHtml(file.name)}</h1><ul>${store.state.files.filter((f) => f.parents.includes(file.id)).map((f) => `<li><a href="/_sandbox/google/files/${encodeURIComponent(f.id)}">${escapeHtml(f.name)}</a></li>`).join('')}</ul>`
          : `<h1>${escapeHtml(file.name)}</h1><video controls preload="metadata" style="max-width:100%;max-height:80vh" src="/_sandbox/google/files/${encodeURIComponent(file.id)}/content"></video>`;
      sendHtml(res, 200, htmlPage(file.name, body));
    })
    .on('GET', '/_sandbox/google/files/:id/content', async ({ res, params }) => {
      const file = store.state.files.find((f) => f.id === params.id && f.mimeType !== FOLDER);
      if (!file) return sendJson(res, 404, googleError(404, `File not found: ${params.id}.`));
      res.writeHead(200, { 'content-type': file.mimeType, 'content-length': String(file.size) });
      await pipeline(createReadStream(store.blob(file.id)), res);
    });
}

/**
 * Google's APIs: the bearer token's grant (or the token itself) names the owner; an expired or
 * revoked token is refused; the rest of a body is discarded on a refusal.
 */
function googleApis(routes: SandboxRoutes, store: GoogleStore, options: GoogleSandboxOptions): void {
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
    .streamed('/upload/drive/v3/files', google((request, owner) => handleUpload(store, options.baseUrl, request, owner, 'drive')))
    .streamed('/upload/drive/v3/files/:id', google((request, owner) => handleReplace(store, request, owner)))
    .streamed('/upload/youtube/v3/videos', google((request, owner) => handleUpload(store, options.baseUrl, request, owner, 'youtube')))
    .streamed('/upload/drive/v3/*', noRoute)
    .streamed('/upload/youtube/v3/*', noRoute)
    .all('/drive/v3/*', noRoute)
    .all('/youtube/v3/*', noRoute);

  routes.on('POST', '/drive/v3/files', google(({ res, body }, owner) => {
    const meta = JSON.parse(body.toString('utf8') || '{}') as DriveMetadata;
    sendJson(res, 200, store.addFile(meta, { id: newId(), size: 0, owner, defaultMimeType: FOLDER }));
  }));
  routes.on('GET', '/drive/v3/files', google(({ res, url }, owner) => {
    const q = url.searchParams.get('q');
    const files = store.state.files.filter((f) => f.owner === owner && matches(f, q)).map((f) => store.publicFile(f));
    sendJson(res, 200, { kind: 'drive#fileList', files });
  }));
  routes.on('GET', '/drive/v3/files/:id', google(async ({ res, url, params }, owner) => {
    const file = store.state.files.find((f) => f.id === params.id && f.owner === owner);
    if (!file) return sendJson(res, 404, googleError(404, `File not found: ${params.id}.`));
    if (url.searchParams.get('alt') !== 'media') return sendJson(res, 200, store.publicFile(file));
    res.writeHead(200, { 'content-type': file.mimeType, 'content-length': String(file.size) });
    await pipeline(createReadStream(store.blob(file.id)), res);
  }));
}

function homeSection(state: State): string {
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
}

interface GoogleSandboxOptions {
  dataDir: string;
  baseUrl: string;
  identify: (token: string) => TokenIdentity | null;
}

export function createGoogleSandbox(options: GoogleSandboxOptions): SandboxModule {
  const store = new GoogleStore(options.dataDir, options.baseUrl);
  return {
    name: 'Google Drive and YouTube',
    routes(routes) {
      sandboxPages(routes, store);
      googleApis(routes, store, options);
    },
    homeSection: () => homeSection(store.state),
    async stop() {
      store.flush();
    },
  };
}
