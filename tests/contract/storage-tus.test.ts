// Resumable uploads with tus-js-client, unchanged, through the gateway at
// /storage/v1/upload/resumable: big uploads, resume after a crash from the stored offset,
// limits and RLS refusing before a byte is stored, and no leftovers.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config, withDb } from '../support/stack.ts';
import {
  buckets, clientAs, filesUnder, objectRow, setUpTestBuckets, tearDownTestBuckets, storageDir, storageUrl, testUser, userJwt, type TestUser,
} from './storage-support.ts';

const endpoint = `${config.urls.api}/storage/v1/upload/resumable`;
const chunkSize = 6 * 1024 * 1024;
const MB = 1024 * 1024;

let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  await setUpTestBuckets();
  alice = await testUser();
  bob = await testUser();
});
afterAll(() => tearDownTestBuckets());

/** An in-memory URL store, shared between client instances as a browser's localStorage is. */
class MemoryUrlStorage implements tus.UrlStorage {
  private readonly entries = new Map<string, tus.PreviousUpload & { fingerprint: string }>();
  private next = 0;

  async findAllUploads(): Promise<tus.PreviousUpload[]> {
    return [...this.entries.values()];
  }
  async findUploadsByFingerprint(fingerprint: string): Promise<tus.PreviousUpload[]> {
    return [...this.entries.values()].filter((entry) => entry.fingerprint === fingerprint);
  }
  async removeUpload(key: string): Promise<void> {
    this.entries.delete(key);
  }
  async addUpload(fingerprint: string, upload: tus.PreviousUpload): Promise<string> {
    const key = `tus::${fingerprint}::${this.next++}`;
    this.entries.set(key, { ...upload, urlStorageKey: key, fingerprint });
    return key;
  }
}

/** How many bytes of the upload at `url` the server has on disk. */
async function storedBytesOf(url: string): Promise<number> {
  const id = new URL(url).pathname.split('/').pop()!;
  return (await fs.stat(path.join(storageDir, 'tus', id))).size;
}

/**
 * An HTTP stack that "crashes" during one PATCH: it sends half of the chunk on a request that
 * declared the whole chunk, then drops the connection, as a tab closed mid-upload would.
 */
class CrashingStack implements tus.HttpStack {
  private readonly inner = new tus.DefaultHttpStack({});
  private patches = 0;
  sentBeforeCrash = 0;

  constructor(private readonly crashOnPatch: number) {}

  getName(): string {
    return 'crashing';
  }

  createRequest(method: string, url: string): tus.HttpRequest {
    if (method !== 'PATCH' || ++this.patches !== this.crashOnPatch) return this.inner.createRequest(method, url);
    const headers: Record<string, string> = {};
    return {
      getMethod: () => method,
      getURL: () => url,
      setHeader: (name, value) => {
        headers[name] = value;
      },
      getHeader: (name) => headers[name],
      setProgressHandler: () => {},
      getUnderlyingObject: () => null,
      abort: async () => {},
      send: async (body: Buffer) => {
        const half = body.subarray(0, Math.floor(body.length / 2));
        this.sentBeforeCrash = Number(headers['Upload-Offset']) + half.length;
        const req = http.request(url, { method: 'PATCH', headers: { ...headers, 'Content-Length': String(body.length) } });
        req.on('error', () => {});
        await new Promise<void>((resolve) => req.write(half, () => resolve()));
        // The connection drops once the server has stored part of the half it was sent.
        await expect.poll(() => storedBytesOf(url), { timeout: 10_000 }).toBeGreaterThan(Number(headers['Upload-Offset']));
        req.destroy();
        throw new Error('simulated crash in the middle of a chunk');
      },
    };
  }
}

interface TusOptions {
  user: TestUser;
  bucket: string;
  objectName: string;
  contentType?: string;
  upsert?: boolean;
  retry?: boolean;
  extra?: Partial<tus.UploadOptions>;
}

function tusOptions(options: TusOptions): tus.UploadOptions {
  return {
    endpoint,
    chunkSize,
    retryDelays: options.retry ? [0, 500, 1000] : null,
    headers: { authorization: `Bearer ${options.user.jwt}`, apikey: config.anonKey, 'x-upsert': options.upsert ? 'true' : 'false' },
    uploadDataDuringCreation: true,
    removeFingerprintOnSuccess: true,
    metadata: {
      bucketName: options.bucket,
      objectName: options.objectName,
      contentType: options.contentType ?? 'application/octet-stream',
      cacheControl: '3600',
      metadata: JSON.stringify({ via: 'tus' }),
    },
    ...options.extra,
  };
}

/** Runs an upload to the end; resolves with the upload, rejects with tus's error. */
function runUpload(upload: tus.Upload, before?: (upload: tus.Upload) => Promise<void>): Promise<tus.Upload> {
  return new Promise((resolve, reject) => {
    upload.options.onSuccess = () => resolve(upload);
    upload.options.onError = (error) => reject(error);
    void (async () => {
      if (before) await before(upload);
      upload.start();
    })().catch(reject);
  });
}

function statusOf(error: unknown): number | undefined {
  return (error as tus.DetailedError).originalResponse?.getStatus();
}

async function downloadSha256(user: TestUser, bucket: string, name: string): Promise<{ sha: string; size: number }> {
  const res = await fetch(`${storageUrl}/object/${bucket}/${name}`, { headers: { authorization: `Bearer ${user.jwt}` } });
  expect(res.status).toBe(200);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha: hash.digest('hex'), size };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** TUS files (without their .json info) currently on disk. */
async function tusFiles(): Promise<string[]> {
  return (await filesUnder('tus')).filter((file) => !file.endsWith('.json'));
}

describe('TUS resumable uploads', () => {
  it('uploads 50 MB in 6 MB chunks; the Location is absolute and under /storage/v1', async () => {
    const data = randomBytes(50 * MB);
    const name = `${alice.id}/tus/fifty.bin`;
    const upload = new tus.Upload(data, tusOptions({ user: alice, bucket: buckets.tus, objectName: name, retry: true }));
    await runUpload(upload);
    expect(upload.url).toMatch(new RegExp(`^${endpoint}/[0-9a-f]{32}$`));

    const stored = await downloadSha256(alice, buckets.tus, name);
    expect(stored).toEqual({ sha: sha256(data), size: data.length });
    const row = await objectRow(buckets.tus, name);
    expect(row).toMatchObject({ owner: alice.id, owner_id: alice.id });
    expect(row!.metadata).toMatchObject({ size: data.length, contentLength: data.length, mimetype: 'application/octet-stream', cacheControl: 'max-age=3600' });
    const info = await alice.client.storage.from(buckets.tus).info(name);
    expect(info.data).toMatchObject({ size: data.length, metadata: { via: 'tus' } });
    // Completed: no TUS leftovers.
    expect(await tusFiles()).not.toContain(path.join(storageDir, 'tus', upload.url!.split('/').pop()!));
  });

  it('resumes an interrupted upload from the stored offset in a new client instance', async () => {
    const data = randomBytes(30 * MB);
    const name = `${alice.id}/tus/resumed.bin`;
    const urlStorage = new MemoryUrlStorage();
    const fingerprint = async () => `resume-test-${alice.id}`;
    const common = { urlStorage, fingerprint, storeFingerprintForResuming: true };

    // First client: "crashes" in the middle of its third chunk.
    const crashing = new CrashingStack(2); // the POST carries chunk 1, PATCHes the rest
    const first = new tus.Upload(data, tusOptions({ user: alice, bucket: buckets.tus, objectName: name, extra: { ...common, httpStack: crashing } }));
    const crash = await runUpload(first).then(() => null, (error: unknown) => error);
    expect(String(crash)).toContain('simulated crash');
    const sentByFirst = crashing.sentBeforeCrash;
    expect(sentByFirst).toBe(2.5 * chunkSize);
    expect(first.url).toBeTruthy();
    expect(await objectRow(buckets.tus, name)).toBeNull(); // not complete: no row

    // The server kept what it stored; HEAD tells where to resume.
    const headOf = () => fetch(first.url!, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${alice.jwt}` } });
    // What arrived of the interrupted chunk is kept (once the server has let go of the dropped request).
    await expect.poll(async () => Number((await headOf()).headers.get('upload-offset')), { timeout: 5000 }).toBeGreaterThan(2 * chunkSize);
    const head = await headOf();
    expect(head.status).toBe(200);
    const storedOffset = Number(head.headers.get('upload-offset'));
    expect(storedOffset).toBeLessThanOrEqual(sentByFirst);
    expect(Number(head.headers.get('upload-length'))).toBe(data.length);

    // Second client (after a reload): finds the previous upload and goes on from there.
    let firstPatchOffset: number | null = null;
    const second = new tus.Upload(data, tusOptions({
      user: alice, bucket: buckets.tus, objectName: name, retry: true,
      extra: {
        ...common,
        onBeforeRequest: (req) => {
          if (req.getMethod() === 'POST') throw new Error('the second client must not create a new upload');
          if (req.getMethod() === 'PATCH' && firstPatchOffset === null) firstPatchOffset = Number(req.getHeader('Upload-Offset'));
        },
      },
    }));
    await runUpload(second, async (upload) => {
      const previous = await upload.findPreviousUploads();
      expect(previous).toHaveLength(1);
      upload.resumeFromPreviousUpload(previous[0]);
    });
    expect(second.url).toBe(first.url);
    expect(firstPatchOffset).toBe(storedOffset);
    const resent = sentByFirst - storedOffset;
    if (process.env.STORAGE_TEST_DEBUG) console.log({ sentByFirst, storedOffset, resent });
    expect(resent).toBeLessThan(chunkSize);

    const stored = await downloadSha256(alice, buckets.tus, name);
    expect(stored).toEqual({ sha: sha256(data), size: data.length });
    expect(await tusFiles()).not.toContain(path.join(storageDir, 'tus', first.url!.split('/').pop()!));
  });

  it('refuses a wrong mime type (415) and an oversized file (413) before storing anything', async () => {
    const tusBefore = await tusFiles();
    const objectsBefore = (await filesUnder('objects')).length;

    const pdf = new tus.Upload(randomBytes(1024), tusOptions({ user: alice, bucket: buckets.limited, objectName: `${alice.id}/doc.pdf`, contentType: 'application/pdf' }));
    const pdfError = await runUpload(pdf).then(() => null, (error: unknown) => error);
    expect(statusOf(pdfError)).toBe(415);
    expect((pdfError as tus.DetailedError).originalResponse!.getBody()).toContain('mime type application/pdf is not supported');

    const big = new tus.Upload(randomBytes(2 * MB), tusOptions({ user: alice, bucket: buckets.limited, objectName: `${alice.id}/big.png`, contentType: 'image/png' }));
    const bigError = await runUpload(big).then(() => null, (error: unknown) => error);
    expect(statusOf(bigError)).toBe(413);

    // Deferred length: the limit is enforced as bytes arrive.
    const deferred = new tus.Upload(randomBytes(2 * MB), tusOptions({
      user: alice, bucket: buckets.limited, objectName: `${alice.id}/deferred.png`, contentType: 'image/png',
      extra: { uploadLengthDeferred: true, uploadDataDuringCreation: false, chunkSize: 512 * 1024 },
    }));
    const deferredError = await runUpload(deferred).then(() => null, (error: unknown) => error);
    expect(statusOf(deferredError)).toBe(413);
    if (deferred.url) await fetch(deferred.url, { method: 'DELETE', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${alice.jwt}` } });

    for (const name of ['doc.pdf', 'big.png', 'deferred.png']) expect(await objectRow(buckets.limited, `${alice.id}/${name}`)).toBeNull();
    expect(await tusFiles()).toEqual(tusBefore);
    expect((await filesUnder('objects')).length).toBe(objectsBefore);

    // Within the limits it works.
    const ok = new tus.Upload(randomBytes(512 * 1024), tusOptions({ user: alice, bucket: buckets.limited, objectName: `${alice.id}/ok.png`, contentType: 'image/png' }));
    await runUpload(ok);
    expect(await objectRow(buckets.limited, `${alice.id}/ok.png`)).toMatchObject({ owner: alice.id });
  });

  it('an aborted upload with termination leaves no file and no row', async () => {
    const tusBefore = await tusFiles();
    const name = `${alice.id}/tus/terminated.bin`;
    const upload = new tus.Upload(randomBytes(20 * MB), tusOptions({ user: alice, bucket: buckets.tus, objectName: name }));
    await new Promise<void>((resolve, reject) => {
      upload.options.onChunkComplete = () => {
        upload.options.onChunkComplete = null;
        upload.abort(true).then(resolve, reject);
      };
      upload.options.onError = reject;
      upload.start();
    });
    expect(await objectRow(buckets.tus, name)).toBeNull();
    expect(await tusFiles()).toEqual(tusBefore);
    const head = await fetch(upload.url!, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${alice.jwt}` } });
    expect(head.status).toBe(404);
  });

  it('applies RLS to the caller, refuses duplicates unless x-upsert, and rejects bad JWTs', async () => {
    const name = `${alice.id}/tus/rls.txt`;
    const intruder = new tus.Upload(Buffer.from('bob was here'), tusOptions({ user: bob, bucket: buckets.tus, objectName: name, contentType: 'text/plain' }));
    const denied = await runUpload(intruder).then(() => null, (error: unknown) => error);
    expect(statusOf(denied)).toBe(403);
    expect((denied as tus.DetailedError).originalResponse!.getBody()).toContain('new row violates row-level security policy');
    expect(await objectRow(buckets.tus, name)).toBeNull();

    await runUpload(new tus.Upload(Buffer.from('first'), tusOptions({ user: alice, bucket: buckets.tus, objectName: name, contentType: 'text/plain' })));
    const dup = await runUpload(new tus.Upload(Buffer.from('second'), tusOptions({ user: alice, bucket: buckets.tus, objectName: name, contentType: 'text/plain' })))
      .then(() => null, (error: unknown) => error);
    expect(statusOf(dup)).toBe(409);
    await runUpload(new tus.Upload(Buffer.from('third'), tusOptions({ user: alice, bucket: buckets.tus, objectName: name, contentType: 'text/plain', upsert: true })));
    expect(await (await alice.client.storage.from(buckets.tus).download(name)).data!.text()).toBe('third');

    const missing = await runUpload(new tus.Upload(Buffer.from('x'), tusOptions({ user: alice, bucket: 'no-such-bucket', objectName: `${alice.id}/x.txt` })))
      .then(() => null, (error: unknown) => error);
    expect(statusOf(missing)).toBe(404);

    const forged = { ...alice, jwt: `${alice.jwt.slice(0, -4)}AAAA` };
    const badJwt = await runUpload(new tus.Upload(Buffer.from('x'), tusOptions({ user: forged, bucket: buckets.tus, objectName: `${alice.id}/x.txt` })))
      .then(() => null, (error: unknown) => error);
    expect(statusOf(badJwt)).toBe(403);
  });

  it('builds the Location from the gateway address, not X-Forwarded headers, and only the uploader may use it', async () => {
    const created = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': `bucketName ${Buffer.from(buckets.tus).toString('base64')},objectName ${Buffer.from(`${alice.id}/fwd.txt`).toString('base64')}`,
        authorization: `Bearer ${alice.jwt}`,
        'x-forwarded-host': 'castloop.example',
        'x-forwarded-proto': 'https',
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${endpoint}/[0-9a-f]{32}$`));
    const local = location;
    const asBob = { 'tus-resumable': '1.0.0', authorization: `Bearer ${bob.jwt}` };
    expect((await fetch(local, { method: 'HEAD', headers: asBob })).status).toBe(403);
    expect((await fetch(local, { method: 'DELETE', headers: asBob })).status).toBe(403);
    const asAlice = { 'tus-resumable': '1.0.0', authorization: `Bearer ${alice.jwt}` };
    const head = await fetch(local, { method: 'HEAD', headers: asAlice });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');
    expect((await fetch(local, { method: 'DELETE', headers: asAlice })).status).toBe(204);
    expect((await fetch(local, { method: 'HEAD', headers: asAlice })).status).toBe(404);
  });

  it('checks every later request of an upload: the creator with an unexpired token only, and the bucket limits as they are at the end', async () => {
    const bucket = 'test-tus-shrinking';
    await withDb((db) => db.query(`insert into storage.buckets (id, name, public) values ($1, $1, false) on conflict (id) do nothing`, [bucket]));
    try {
      const name = `${alice.id}/shrinking.bin`;
      const created = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'tus-resumable': '1.0.0',
          'upload-length': String(2 * MB),
          'upload-metadata': `bucketName ${Buffer.from(bucket).toString('base64')},objectName ${Buffer.from(name).toString('base64')}`,
          authorization: `Bearer ${alice.jwt}`,
        },
      });
      expect(created.status).toBe(201);
      const location = created.headers.get('location')!;
      const patch = (token: string, offset: number) =>
        fetch(location, {
          method: 'PATCH',
          headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', authorization: `Bearer ${token}` },
          body: new Uint8Array(randomBytes(MB)),
        });

      expect((await patch(alice.jwt, 0)).status).toBe(204);
      const expired = await patch(await userJwt(alice.id, Math.floor(Date.now() / 1000) - 60), MB);
      expect(expired.status).toBe(403);
      expect(await expired.text()).toContain('jwt expired');
      expect((await patch(bob.jwt, MB)).status).toBe(403);

      await withDb((db) => db.query('update storage.buckets set file_size_limit = $2 where id = $1', [bucket, MB]));
      const tooLarge = await patch(alice.jwt, MB);
      expect(tooLarge.status).toBe(413);
      expect(await objectRow(bucket, name)).toBeNull();
      expect(await tusFiles()).not.toContain(path.join(storageDir, 'tus', location.split('/').pop()!));
    } finally {
      const admin = clientAs(config.serviceRoleKey).storage;
      await admin.emptyBucket(bucket);
      await admin.deleteBucket(bucket);
    }
  });

  it('takes a request whose Host is not a host name without a 500', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(endpoint, {
        method: 'POST',
        headers: {
          host: 'not a host',
          'tus-resumable': '1.0.0',
          'upload-length': '10',
          'upload-metadata': `bucketName ${Buffer.from(buckets.tus).toString('base64')},objectName ${Buffer.from(`${alice.id}/odd-host.txt`).toString('base64')}`,
          authorization: `Bearer ${alice.jwt}`,
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBeLessThan(500);
  });

  it('answers OPTIONS with the TUS protocol headers', async () => {
    const res = await fetch(endpoint, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'POST' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('tus-extension')).toContain('creation');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
  });
});
