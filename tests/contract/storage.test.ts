// Local Storage through the gateway with @supabase/supabase-js, unchanged: uploads, downloads,
// listing, signed URLs, limits, and RLS deciding per caller, as on Supabase.
import http from 'node:http';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_URL_MAX_SECONDS, STORAGE_MAX_OBJECTS_PER_REQUEST } from '../../supabase/functions/_shared/domain-server/storage-limits.ts';
import { config } from '../support/stack.ts';
import {
  buckets, clientAs, filesUnder, lapsedSignedUrlToken, objectRow, setUpTestBuckets, tearDownTestBuckets, storageUrl, testUser, userJwt, type TestUser,
} from './storage-support.ts';

let alice: TestUser;
let bob: TestUser;
const service = () => clientAs(config.serviceRoleKey);

beforeAll(async () => {
  await setUpTestBuckets();
  alice = await testUser();
  bob = await testUser();
});
afterAll(() => tearDownTestBuckets());

async function text(blob: Blob | null): Promise<string> {
  return blob ? blob.text() : '';
}

describe('storage objects through supabase-js', () => {
  it('uploads, downloads and describes an object for its owner; the row belongs to the caller', async () => {
    const path = `${alice.id}/hello.txt`;
    const up = await alice.client.storage.from(buckets.private).upload(path, 'hello storage', { contentType: 'text/plain' });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path, fullPath: `${buckets.private}/${path}` });
    expect(up.data!.id).toMatch(/^[0-9a-f-]{36}$/);

    const down = await alice.client.storage.from(buckets.private).download(path);
    expect(down.error).toBeNull();
    expect(await text(down.data)).toBe('hello storage');

    const info = await alice.client.storage.from(buckets.private).info(path);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name: path, size: 13, contentType: 'text/plain', cacheControl: 'max-age=3600' });
    expect((await alice.client.storage.from(buckets.private).exists(path)).data).toBe(true);

    const row = await objectRow(buckets.private, path);
    expect(row).toMatchObject({ owner: alice.id, owner_id: alice.id });
    expect(row!.metadata).toMatchObject({ size: 13, mimetype: 'text/plain', contentLength: 13, httpStatusCode: 200, cacheControl: 'max-age=3600' });
    expect(Object.keys(row!.metadata).sort()).toEqual(['cacheControl', 'contentLength', 'eTag', 'httpStatusCode', 'lastModified', 'mimetype', 'size']);
  });

  it('multipart (Blob) uploads keep the part type and user metadata', async () => {
    const path = `${alice.id}/blob.png`;
    const up = await alice.client.storage
      .from(buckets.private)
      .upload(path, new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { metadata: { label: 'logo' } });
    expect(up.error).toBeNull();
    const info = await alice.client.storage.from(buckets.private).info(path);
    expect(info.data).toMatchObject({ size: 4, contentType: 'image/png', metadata: { label: 'logo' } });
  });

  it('hides objects from another user and refuses their writes (RLS)', async () => {
    const path = `${alice.id}/secret.txt`;
    expect((await alice.client.storage.from(buckets.private).upload(path, 'secret')).error).toBeNull();

    const down = await bob.client.storage.from(buckets.private).download(path);
    expect(down.data).toBeNull();
    expect(down.error).toMatchObject({ status: 400, statusCode: '404', message: 'Object not found' });

    const list = await bob.client.storage.from(buckets.private).list(alice.id);
    expect(list.data).toEqual([]);

    const write = await bob.client.storage.from(buckets.private).upload(`${alice.id}/intruder.txt`, 'x');
    expect(write.error).toMatchObject({ status: 400, statusCode: '403', message: 'new row violates row-level security policy' });
    expect(await objectRow(buckets.private, `${alice.id}/intruder.txt`)).toBeNull();

    const overwrite = await bob.client.storage.from(buckets.private).upload(path, 'x', { upsert: true });
    expect(overwrite.error).toMatchObject({ statusCode: '403' });

    const removed = await bob.client.storage.from(buckets.private).remove([path]);
    expect(removed.data).toEqual([]);
    expect(await text((await alice.client.storage.from(buckets.private).download(path)).data)).toBe('secret');

    const signed = await bob.client.storage.from(buckets.private).createSignedUrl(path, 60);
    expect(signed.error).toMatchObject({ statusCode: '404' });

    const moved = await bob.client.storage.from(buckets.private).move(path, `${bob.id}/stolen.txt`);
    expect(moved.error).toMatchObject({ statusCode: '404' });

    // Bob's own folder works.
    expect((await bob.client.storage.from(buckets.private).upload(`${bob.id}/mine.txt`, 'mine')).error).toBeNull();
  });

  it('answers 409 Duplicate for an existing object unless upserting', async () => {
    const path = `${alice.id}/dup.txt`;
    const bucket = alice.client.storage.from(buckets.private);
    expect((await bucket.upload(path, 'first')).error).toBeNull();
    const again = await bucket.upload(path, 'second');
    expect(again.error).toMatchObject({ status: 400, statusCode: '409', message: 'The resource already exists' });
    expect(await text((await bucket.download(path)).data)).toBe('first');

    expect((await bucket.upload(path, 'third', { upsert: true })).error).toBeNull();
    expect(await text((await bucket.download(path)).data)).toBe('third');
    expect((await bucket.update(path, 'fourth')).error).toBeNull();
    expect(await text((await bucket.download(path)).data)).toBe('fourth');
  });

  it('lists one folder level: files with ids, sub-folders with id null; limit, offset, sortBy, search', async () => {
    const bucket = alice.client.storage.from(buckets.private);
    for (const name of ['list/a.txt', 'list/b.txt', 'list/c.txt', 'list/sub/deep.txt']) {
      expect((await bucket.upload(`${alice.id}/${name}`, name)).error).toBeNull();
    }
    const all = await bucket.list(`${alice.id}/list`);
    expect(all.error).toBeNull();
    expect(all.data!.map((item) => item.name)).toEqual(['a.txt', 'b.txt', 'c.txt', 'sub']);
    const folder = all.data!.find((item) => item.name === 'sub')!;
    expect(folder.id).toBeNull();
    expect(all.data!.find((item) => item.name === 'a.txt')!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(all.data!.find((item) => item.name === 'a.txt')!.metadata).toMatchObject({ size: 10 });

    const page = await bucket.list(`${alice.id}/list`, { limit: 2, offset: 1, sortBy: { column: 'name', order: 'desc' } });
    expect(page.data!.map((item) => item.name)).toEqual(['c.txt', 'b.txt']);
    const found = await bucket.list(`${alice.id}/list`, { search: 'b' });
    expect(found.data!.map((item) => item.name)).toEqual(['b.txt']);
    const top = await bucket.list();
    expect(top.data!.map((item) => item.name)).toEqual([alice.id]);
  });

  it('handles names with spaces and non-ASCII characters, in paths and signed URLs', async () => {
    const bucket = alice.client.storage.from(buckets.private);
    const name = `${alice.id}/my folder/ä file (1)+x.txt`;
    expect((await bucket.upload(name, 'odd name', { contentType: 'text/plain' })).error).toBeNull();
    expect(await text((await bucket.download(name)).data)).toBe('odd name');
    expect((await bucket.list(alice.id, { search: 'my' })).data!.map((item) => item.name)).toEqual(['my folder']);
    expect((await bucket.list(`${alice.id}/my folder`)).data!.map((item) => item.name)).toEqual(['ä file (1)+x.txt']);
    const signed = await bucket.createSignedUrl(name, 60);
    expect(await (await fetch(signed.data!.signedUrl)).text()).toBe('odd name');
  });

  it('moves, copies and removes objects', async () => {
    const bucket = alice.client.storage.from(buckets.private);
    expect((await bucket.upload(`${alice.id}/mv/src.txt`, 'moving')).error).toBeNull();
    expect((await bucket.move(`${alice.id}/mv/src.txt`, `${alice.id}/mv/dst.txt`)).data).toEqual({ message: 'Successfully moved' });
    expect((await bucket.download(`${alice.id}/mv/src.txt`)).error).toMatchObject({ statusCode: '404' });
    expect((await bucket.copy(`${alice.id}/mv/dst.txt`, `${alice.id}/mv/copy.txt`)).data).toEqual({ path: `${buckets.private}/${alice.id}/mv/copy.txt` });
    expect(await text((await bucket.download(`${alice.id}/mv/copy.txt`)).data)).toBe('moving');
    // Copying into someone else's folder is refused by RLS.
    expect((await bucket.copy(`${alice.id}/mv/dst.txt`, `${bob.id}/copy.txt`)).error).toMatchObject({ statusCode: '403' });

    const removed = await bucket.remove([`${alice.id}/mv/dst.txt`, `${alice.id}/mv/copy.txt`, `${alice.id}/mv/none.txt`]);
    expect(removed.error).toBeNull();
    expect(removed.data!.map((row) => row.name).sort()).toEqual([`${alice.id}/mv/copy.txt`, `${alice.id}/mv/dst.txt`]);
    expect((await bucket.list(`${alice.id}/mv`)).data).toEqual([]);
  });
});

describe('signed URLs', () => {
  it('a signed download URL works without credentials, for that object only, until it expires', async () => {
    const bucket = alice.client.storage.from(buckets.private);
    await bucket.upload(`${alice.id}/signed/one.txt`, 'one');
    await bucket.upload(`${alice.id}/signed/two.txt`, 'two');

    const signed = await bucket.createSignedUrl(`${alice.id}/signed/one.txt`, 60);
    expect(signed.error).toBeNull();
    expect(signed.data!.signedUrl).toMatch(new RegExp(`^${storageUrl}/object/sign/${buckets.private}/${alice.id}/signed/one.txt\\?token=`));
    const ok = await fetch(signed.data!.signedUrl);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('one');

    // The token is scoped to one object.
    const token = new URL(signed.data!.signedUrl).searchParams.get('token')!;
    const other = await fetch(`${storageUrl}/object/sign/${buckets.private}/${alice.id}/signed/two.txt?token=${token}`);
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });

    // A one-second URL carries a one-second lifetime; once past it, the server refuses it.
    const short = await bucket.createSignedUrl(`${alice.id}/signed/one.txt`, 1);
    const shortUrl = new URL(short.data!.signedUrl);
    const claims = decodeJwt(shortUrl.searchParams.get('token')!);
    expect(claims.exp! - claims.iat!).toBe(1);
    shortUrl.searchParams.set('token', await lapsedSignedUrlToken(claims));
    const expired = await fetch(shortUrl);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ statusCode: '403', code: 'InvalidJWT', message: 'jwt expired' });
  });

  it('a signed download URL lives at most a week (a project rule: hosted Storage has no cap)', async () => {
    const bucket = alice.client.storage.from(buckets.private);
    const path = `${alice.id}/signed/lifetime.txt`;
    await bucket.upload(path, 'lifetime');
    const tenYears = 10 * 365 * 24 * 60 * 60;
    const refused = await bucket.createSignedUrl(path, tenYears);
    expect(refused.data).toBeNull();
    expect(refused.error?.message).toBe(`expiresIn must be at most ${SIGNED_URL_MAX_SECONDS} seconds`);
    const refusedBatch = await bucket.createSignedUrls([path], tenYears);
    expect(refusedBatch.error?.message).toBe(`expiresIn must be at most ${SIGNED_URL_MAX_SECONDS} seconds`);
    const week = await bucket.createSignedUrl(path, SIGNED_URL_MAX_SECONDS);
    expect(week.error).toBeNull();
    const claims = decodeJwt(new URL(week.data!.signedUrl).searchParams.get('token')!);
    expect(claims.exp! - claims.iat!).toBe(SIGNED_URL_MAX_SECONDS);
  });

  it('signs many paths at once, with an error for objects the caller cannot see', async () => {
    const bucket = alice.client.storage.from(buckets.private);
    await bucket.upload(`${alice.id}/batch/a.txt`, 'a');
    const result = await bucket.createSignedUrls([`${alice.id}/batch/a.txt`, `${alice.id}/batch/missing.txt`], 60);
    expect(result.error).toBeNull();
    expect(result.data![0]).toMatchObject({ error: null, path: `${alice.id}/batch/a.txt` });
    expect(await (await fetch(result.data![0].signedUrl!)).text()).toBe('a');
    expect(result.data![1]).toMatchObject({ path: `${alice.id}/batch/missing.txt`, signedUrl: null });
    expect(result.data![1].error).toBeTruthy();
    // As Storage's schema: at least one path, at most STORAGE_MAX_OBJECTS_PER_REQUEST.
    const tooMany = await bucket.createSignedUrls(Array.from({ length: STORAGE_MAX_OBJECTS_PER_REQUEST + 1 }, (_, i) => `${alice.id}/batch/${i}.txt`), 60);
    expect(tooMany.error?.message).toBe(`body/paths must NOT have more than ${STORAGE_MAX_OBJECTS_PER_REQUEST} items`);
    expect((await bucket.createSignedUrls([], 60)).error?.message).toBe('body/paths must NOT have fewer than 1 items');
  });

  it('a signed upload URL lets anyone upload that one object, owned by the signer', async () => {
    const path = `${alice.id}/signed-upload.txt`;
    const sign = await alice.client.storage.from(buckets.private).createSignedUploadUrl(path);
    expect(sign.error).toBeNull();
    expect(sign.data!.token).toBeTruthy();
    const anonymous = clientAs();
    const up = await anonymous.storage.from(buckets.private).uploadToSignedUrl(path, sign.data!.token, 'via signed url', { contentType: 'text/plain' });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path, fullPath: `${buckets.private}/${path}` });
    expect(await text((await alice.client.storage.from(buckets.private).download(path)).data)).toBe('via signed url');
    expect(await objectRow(buckets.private, path)).toMatchObject({ owner: alice.id });

    // Not for another object, not twice without upsert, not as a download token.
    const wrong = await anonymous.storage.from(buckets.private).uploadToSignedUrl(`${alice.id}/other.txt`, sign.data!.token, 'x');
    expect(wrong.error).toMatchObject({ statusCode: '400' });
    const twice = await anonymous.storage.from(buckets.private).uploadToSignedUrl(path, sign.data!.token, 'again');
    expect(twice.error).toMatchObject({ statusCode: '409' });
    const asDownload = await fetch(`${storageUrl}/object/sign/${buckets.private}/${path}?token=${sign.data!.token}`);
    expect(asDownload.status).toBe(400);

    // Bob may not sign an upload into Alice's folder.
    const denied = await bob.client.storage.from(buckets.private).createSignedUploadUrl(`${alice.id}/bob.txt`);
    expect(denied.error).toMatchObject({ statusCode: '403' });
  });
});

describe('limits, public buckets, JWTs, buckets', () => {
  it('enforces the bucket size limit (413) and mime types (415), leaving nothing behind', async () => {
    const bucket = alice.client.storage.from(buckets.limited);
    const objectsBefore = (await filesUnder('objects')).length;
    const big = await bucket.upload(`${alice.id}/big.txt`, new Uint8Array(2 * 1024 * 1024), { contentType: 'text/plain' });
    expect(big.error).toMatchObject({ status: 400, statusCode: '413', message: 'The object exceeded the maximum allowed size' });
    const bigBlob = await bucket.upload(`${alice.id}/big.png`, new Blob([new Uint8Array(2 * 1024 * 1024)], { type: 'image/png' }));
    expect(bigBlob.error).toMatchObject({ statusCode: '413' });
    const pdf = await bucket.upload(`${alice.id}/doc.pdf`, 'pdf', { contentType: 'application/pdf' });
    expect(pdf.error).toMatchObject({ statusCode: '415', message: 'mime type application/pdf is not supported' });
    expect(await objectRow(buckets.limited, `${alice.id}/big.txt`)).toBeNull();
    expect(await objectRow(buckets.limited, `${alice.id}/big.png`)).toBeNull();
    expect(await objectRow(buckets.limited, `${alice.id}/doc.pdf`)).toBeNull();
    expect((await filesUnder('objects')).length).toBe(objectsBefore);
    expect(await filesUnder('tmp')).toEqual([]);

    expect((await bucket.upload(`${alice.id}/ok.png`, new Uint8Array(1024), { contentType: 'image/png' })).error).toBeNull();
    expect((await bucket.upload(`${alice.id}/ok.txt`, 'fine', { contentType: 'text/plain;charset=UTF-8' })).error).toBeNull();
  });

  it('serves public buckets without credentials and keeps private ones closed', async () => {
    const admin = service();
    expect((await admin.storage.from(buckets.public).upload('logo.txt', 'public bytes', { contentType: 'text/plain' })).error).toBeNull();
    const url = admin.storage.from(buckets.public).getPublicUrl('logo.txt').data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('public bytes');

    await alice.client.storage.from(buckets.private).upload(`${alice.id}/not-public.txt`, 'x');
    const closed = await fetch(admin.storage.from(buckets.private).getPublicUrl(`${alice.id}/not-public.txt`).data.publicUrl);
    expect(closed.status).toBe(400);
    expect(await closed.json()).toMatchObject({ statusCode: '404', code: 'NoSuchBucket', error: 'Bucket not found', message: 'Bucket not found' });
  });

  it('answers a bad or expired JWT with InvalidJWT, and anon sees nothing private', async () => {
    const forged = clientAs('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad-signature');
    const bad = await forged.storage.from(buckets.private).download(`${alice.id}/hello.txt`);
    expect(bad.error).toMatchObject({ status: 400, statusCode: '403' });
    const res = await fetch(`${storageUrl}/object/${buckets.private}/${alice.id}/hello.txt`, {
      headers: { authorization: `Bearer ${await userJwt(alice.id, Math.floor(Date.now() / 1000) - 10)}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ statusCode: '403', code: 'InvalidJWT', error: 'Unauthorized', message: 'jwt expired' });

    const anon = clientAs();
    expect((await anon.storage.from(buckets.private).download(`${alice.id}/hello.txt`)).error).toMatchObject({ statusCode: '404' });
    expect((await anon.storage.from(buckets.private).upload('anon.txt', 'x')).error).toMatchObject({ statusCode: '403' });
  });

  it('manages buckets as the service role; users cannot create them', async () => {
    const admin = service().storage;
    const id = `test-api-${Date.now()}`;
    expect((await admin.createBucket(id, { public: false, fileSizeLimit: '1MB', allowedMimeTypes: ['text/plain'] })).data).toEqual({ name: id });
    expect((await admin.createBucket(id)).error).toMatchObject({ statusCode: '409' });
    const got = await admin.getBucket(id);
    expect(got.data).toMatchObject({ id, name: id, public: false, file_size_limit: 1_000_000, allowed_mime_types: ['text/plain'] });
    expect((await admin.listBuckets()).data!.map((b) => b.id)).toContain(id);
    expect((await admin.updateBucket(id, { public: true, fileSizeLimit: 2048 })).data).toEqual({ message: 'Successfully updated' });
    expect((await admin.getBucket(id)).data).toMatchObject({ public: true, file_size_limit: 2048 });

    expect((await service().storage.from(id).upload('a.txt', 'a', { contentType: 'text/plain' })).error).toBeNull();
    expect((await admin.deleteBucket(id)).error).toMatchObject({ statusCode: '409' });
    expect((await admin.emptyBucket(id)).data).toEqual({ message: 'Empty bucket has been queued. Completion may take up to an hour.' });
    expect((await admin.deleteBucket(id)).data).toEqual({ message: 'Successfully deleted' });
    expect((await admin.getBucket(id)).error).toMatchObject({ status: 400, statusCode: '404', message: 'Bucket not found' });

    const userCreate = await alice.client.storage.createBucket(`${id}-user`);
    expect(userCreate.error).toMatchObject({ statusCode: '403' });
    expect((await alice.client.storage.getBucket(buckets.private)).error).toMatchObject({ statusCode: '404' });
  });

  it('a REST upload cut off by the client leaves no row and no temp file', async () => {
    const name = `${alice.id}/cut-off.bin`;
    const url = new URL(`${storageUrl}/object/${buckets.private}/${name}`);
    await new Promise<void>((resolve) => {
      const req = http.request(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.jwt}`, 'content-type': 'application/octet-stream', 'content-length': String(10 * 1024 * 1024) },
      });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(1024 * 1024), () => setTimeout(() => {
        req.destroy();
        resolve();
      }, 200));
    });
    await expect.poll(() => filesUnder('tmp'), { timeout: 5000 }).toEqual([]);
    expect(await objectRow(buckets.private, name)).toBeNull();
  });

  it('answers an unknown bucket with NoSuchBucket', async () => {
    const res = await service().storage.from('no-such-bucket').upload('x.txt', 'x');
    expect(res.error).toMatchObject({ status: 400, statusCode: '404', message: 'Bucket not found' });
  });
});
