// Storage answers supabase-js users could tell apart from supabase/storage: list-v2, the
// missing-Authorization error, the queued-emptying message, the bucket and info shapes, and byte
// ranges read through a signed URL (the worker's pieces read their part of an episode so).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_MAX_OBJECTS_PER_REQUEST } from '../../supabase/functions/_shared/domain-server/storage-limits.ts';
import { deleteObjects, signedObjectUrls } from '../../worker/platforms/storage.ts';
import { config } from '../support/stack.ts';
import { buckets, clientAs, setUpTestBuckets, storageUrl, tearDownTestBuckets, testUser, type TestUser } from './storage-support.ts';

let alice: TestUser;
const service = () => clientAs(config.serviceRoleKey);

beforeAll(async () => {
  await setUpTestBuckets();
  alice = await testUser();
  const files = ['a.txt', 'b.txt', 'docs/one.txt', 'docs/two.txt', 'docs/deep/three.txt', 'zz/last.txt'];
  for (const file of files) {
    const { error } = await alice.client.storage.from(buckets.private).upload(`${alice.id}/${file}`, file, { contentType: 'text/plain' });
    expect(error).toBeNull();
  }
});
afterAll(() => tearDownTestBuckets());

describe('POST /object/list-v2/{bucket} (listV2)', () => {
  it('lists every object under a prefix, flat, paged by a cursor', async () => {
    const bucket = alice.client.storage.from(buckets.private);
    const first = await bucket.listV2({ prefix: `${alice.id}/`, limit: 4 });
    expect(first.error).toBeNull();
    expect(first.data!.hasNext).toBe(true);
    expect(first.data!.folders).toEqual([]);
    expect(first.data!.objects.map((o) => o.name)).toEqual(
      ['a.txt', 'b.txt', 'docs/deep/three.txt', 'docs/one.txt'].map((name) => `${alice.id}/${name}`),
    );
    expect(first.data!.objects[0]).toMatchObject({ id: expect.any(String), metadata: expect.objectContaining({ mimetype: 'text/plain' }) });
    const rest = await bucket.listV2({ prefix: `${alice.id}/`, limit: 4, cursor: first.data!.nextCursor });
    expect(rest.data!.hasNext).toBe(false);
    expect(rest.data!.nextCursor).toBeUndefined();
    expect(rest.data!.objects.map((o) => o.name)).toEqual(['docs/two.txt', 'zz/last.txt'].map((name) => `${alice.id}/${name}`));
  });

  it('with_delimiter folds deeper paths into folders', async () => {
    const { data, error } = await alice.client.storage.from(buckets.private).listV2({ prefix: `${alice.id}/`, with_delimiter: true });
    expect(error).toBeNull();
    expect(data!.folders.map((f) => f.name)).toEqual([`${alice.id}/docs/`, `${alice.id}/zz/`]);
    expect(data!.objects.map((o) => o.name)).toEqual([`${alice.id}/a.txt`, `${alice.id}/b.txt`]);
  });

  it('shows another user nothing (RLS)', async () => {
    const bob = await testUser();
    const { data } = await bob.client.storage.from(buckets.private).listV2({ prefix: `${alice.id}/` });
    expect(data).toEqual({ hasNext: false, folders: [], objects: [] });
  });
});

describe('answers as supabase/storage gives them', () => {
  it('a request without Authorization (nor apikey): 403 "Invalid Compact JWS"', async () => {
    const res = await fetch(`${storageUrl}/object/list/${buckets.private}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { statusCode: '403', code: 'AccessDenied', error: 'Unauthorized', message: 'Invalid Compact JWS' },
    });
  });

  it('a bucket: no owner_id or type alone, type in the list; emptying is "queued"', async () => {
    const admin = service().storage;
    const got = await admin.getBucket(buckets.private);
    expect(Object.keys(got.data!).sort()).toEqual(
      ['allowed_mime_types', 'created_at', 'file_size_limit', 'id', 'name', 'owner', 'public', 'updated_at'],
    );
    const listed = (await admin.listBuckets()).data!.find((b) => b.id === buckets.private)!;
    expect(listed).toMatchObject({ type: 'STANDARD' });
    expect(listed).not.toHaveProperty('owner_id');

    const id = `test-empty-${Date.now()}`;
    expect((await admin.createBucket(id)).error).toBeNull();
    expect((await service().storage.from(id).upload('x.txt', 'x')).error).toBeNull();
    expect((await admin.emptyBucket(id)).data).toEqual({ message: 'Empty bucket has been queued. Completion may take up to an hour.' });
    expect((await admin.deleteBucket(id)).error).toBeNull();
  });

  it('object info has last_modified and created_at, and no updated_at', async () => {
    const { data, error } = await alice.client.storage.from(buckets.private).info(`${alice.id}/a.txt`);
    expect(error).toBeNull();
    expect(data).toMatchObject({ name: `${alice.id}/a.txt`, size: 5, contentType: 'text/plain' });
    expect(data!.lastModified).toBeTruthy();
    expect(data).not.toHaveProperty('updatedAt');
    expect(data).not.toHaveProperty('lastAccessedAt');
  });

  it('a signed URL answers byte ranges (206, Content-Range) with exactly those bytes, as a player or ffmpeg seeking reads them', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
    const name = `${alice.id}/ranged.bin`;
    expect((await alice.client.storage.from(buckets.private).upload(name, bytes, { contentType: 'application/octet-stream' })).error).toBeNull();
    const { data, error } = await service().storage.from(buckets.private).createSignedUrl(name, 60);
    expect(error).toBeNull();
    const read = async (range: string) => {
      const res = await fetch(data!.signedUrl, { headers: { range } });
      return { status: res.status, range: res.headers.get('content-range'), length: res.headers.get('content-length'), body: Buffer.from(await res.arrayBuffer()) };
    };
    expect(await read('bytes=1000-1999')).toEqual({ status: 206, range: 'bytes 1000-1999/4096', length: '1000', body: bytes.subarray(1000, 2000) });
    // Open-ended, as ffmpeg asks after a seek: from there to the end.
    expect(await read('bytes=4000-')).toEqual({ status: 206, range: 'bytes 4000-4095/4096', length: '96', body: bytes.subarray(4000) });
    expect(await read('bytes=-10')).toEqual({ status: 206, range: 'bytes 4086-4095/4096', length: '10', body: bytes.subarray(4086) });
    expect((await read('bytes=5000-')).status).toBe(416);
  });

  it("the worker's signed URLs, one request for many, read objects whose names have spaces, '&', '=' and '+' (ranges too)", async () => {
    const access = { supabaseUrl: config.urls.api, serviceRoleKey: config.serviceRoleKey };
    const names = [`${alice.id}/My episode A&B=1 +2.mp4`, `${alice.id}/segment-1.mp4`];
    for (const [i, name] of names.entries()) {
      expect((await alice.client.storage.from(buckets.private).upload(name, Buffer.from(`${i}123456789`), { contentType: 'video/mp4' })).error).toBeNull();
    }
    const urls = await signedObjectUrls(access, buckets.private, names, 60);
    expect(urls).toHaveLength(2);
    for (const [i, url] of urls.entries()) {
      const res = await fetch(url, { headers: { range: 'bytes=0-4' } });
      expect({ status: res.status, body: await res.text() }).toEqual({ status: 206, body: `${i}1234` });
    }
    // A piece gone from Storage is a permanent error naming it.
    await expect(signedObjectUrls(access, buckets.private, [names[1], `${alice.id}/gone.mp4`], 60)).rejects.toMatchObject({
      message: `${buckets.private}/${alice.id}/gone.mp4 is no longer in storage`,
      permanent: true,
    });
  });

  it("the worker deletes more objects than Storage takes in one request, in as many as it needs", async () => {
    const access = { supabaseUrl: config.urls.api, serviceRoleKey: config.serviceRoleKey };
    const names = Array.from({ length: STORAGE_MAX_OBJECTS_PER_REQUEST + 1 }, (_, i) => `${alice.id}/many/${i}.bin`);
    const kept = `${alice.id}/many/kept.bin`;
    for (const name of [names[0], names[STORAGE_MAX_OBJECTS_PER_REQUEST], kept]) {
      expect((await alice.client.storage.from(buckets.private).upload(name, Buffer.from('x'), { contentType: 'video/mp4' })).error).toBeNull();
    }
    await deleteObjects(access, buckets.private, names);
    const { data } = await service().storage.from(buckets.private).list(`${alice.id}/many`);
    expect(data?.map((file) => file.name)).toEqual(['kept.bin']);
  });
});
