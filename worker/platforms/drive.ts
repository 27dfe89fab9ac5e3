// Google Drive API v3: one folder per episode (files.create) and resumable uploads streamed from
// disk (files.create with uploadType=resumable), each tagged with appProperties so a retried job
// finds what an earlier attempt made (files.list) instead of making it again. The base URL is the
// sandbox locally.
import { statSync } from 'node:fs';
import { ProcessingFailure } from '../failure.ts';
import { fileBody } from './file-body.ts';
import { answerJson, check } from './provider-answer.ts';

interface DriveFile {
  id: string;
  name: string;
  webViewLink?: string;
}

export class DriveClient {
  constructor(
    private readonly apiBase: string,
    private readonly token: string,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.token}`, ...extra };
  }

  /** The first file (not in the trash) carrying all these appProperties, within `folderId` when given. */
  async find(appProperties: Record<string, string>, folderId: string | null, signal?: AbortSignal): Promise<DriveFile | null> {
    const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    const clauses = Object.entries(appProperties).map(([key, value]) => `appProperties has { key=${quote(key)} and value=${quote(value)} }`);
    if (folderId) clauses.push(`${quote(folderId)} in parents`);
    clauses.push('trashed = false');
    const url = new URL(`${this.apiBase}/drive/v3/files`);
    url.searchParams.set('q', clauses.join(' and '));
    url.searchParams.set('fields', 'files(id,name,webViewLink)');
    url.searchParams.set('spaces', 'drive');
    const res = await fetch(url, { headers: this.headers(), signal });
    const { files } = (await answerJson(res, 'Looking for files in Drive', 'Google')) as { files: DriveFile[] };
    return files[0] ?? null;
  }

  async createFolder(name: string, appProperties: Record<string, string>, signal?: AbortSignal): Promise<DriveFile> {
    const res = await fetch(`${this.apiBase}/drive/v3/files?fields=id,name,webViewLink`, {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ name, mimeType: 'application/vnd.google-apps.folder', appProperties }),
      signal,
    });
    return (await answerJson(res, 'Creating the Drive folder', 'Google')) as DriveFile;
  }

  /** Uploads `file` into `folderId` in one resumable session, streamed from disk. */
  async upload(file: string, name: string, folderId: string, mimeType: string, appProperties: Record<string, string>, signal?: AbortSignal): Promise<DriveFile> {
    const size = statSync(file).size;
    const start = await fetch(`${this.apiBase}/upload/drive/v3/files?uploadType=resumable&fields=id,name,webViewLink`, {
      method: 'POST',
      headers: this.headers({
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-type': mimeType,
        'x-upload-content-length': String(size),
      }),
      body: JSON.stringify({ name, parents: [folderId], mimeType, appProperties }),
      signal,
    });
    await check(start, `Starting the upload of ${name}`, 'Google');
    await start.body?.cancel();
    const session = start.headers.get('location');
    if (!session) throw ProcessingFailure.refusal(502, `Starting the upload of ${name}: no upload session`);
    return this.sendFile(session, 'PUT', file, mimeType, `Uploading ${name}`, signal);
  }

  /** Replaces the content of Drive file `fileId` (files.update, uploadType=media): its id, name and folder stay. */
  async replace(fileId: string, file: string, mimeType: string, signal?: AbortSignal): Promise<DriveFile> {
    const url = `${this.apiBase}/upload/drive/v3/files/${encodeURIComponent(fileId)}?uploadType=media&fields=id,name,webViewLink`;
    return this.sendFile(url, 'PATCH', file, mimeType, `Replacing ${fileId} in Drive`, signal);
  }

  /** `file`'s bytes streamed from disk to `url`; the answer is the file's record. */
  private async sendFile(url: string, method: 'PUT' | 'PATCH', file: string, mimeType: string, what: string, signal?: AbortSignal): Promise<DriveFile> {
    const res = await fetch(url, {
      method,
      headers: this.headers({ 'content-type': mimeType, 'content-length': String(statSync(file).size) }),
      body: fileBody(file),
      duplex: 'half',
      signal,
    } as RequestInit);
    return (await answerJson(res, what, 'Google')) as DriveFile;
  }
}
