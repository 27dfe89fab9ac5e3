// The bucket rules as the Storage API applies them (through the gateway, with user JWTs).
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '../support/stack.ts';
import { type Actor, createReadySubscriber, createUser, jwtFor, markEpisodeFileChecked, queryAs, withDb } from './db-support.ts';

let owner: Actor & { id: string };
let other: Actor & { id: string };
let admin: Actor & { id: string };
let neverPaid: Actor & { id: string };

const MP4_HEAD = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112, 105, 115, 111, 109, 0, 0, 2, 0]);

beforeAll(async () => {
  await withDb(async (db) => {
    owner = await createReadySubscriber(db);
    other = await createReadySubscriber(db, 'starter');
    admin = { ...(await createUser(db, { admin: true })), admin: true };
    neverPaid = await createUser(db);
  });
});

const objectUrl = (bucket: string, path: string) => `${config.urls.api}/storage/v1/object/${bucket}/${path}`;

async function upload(
  actor: Actor,
  bucket: string,
  path: string,
  contentType: string,
  body: Uint8Array<ArrayBuffer> = MP4_HEAD,
): Promise<{ status: number; logical: string; message: string }> {
  const res = await fetch(objectUrl(bucket, path), {
    method: 'POST',
    headers: { apikey: config.anonKey, authorization: `Bearer ${await jwtFor(actor)}`, 'content-type': contentType },
    body,
  });
  const answer = await res.json();
  return { status: res.status, logical: String(answer.statusCode ?? res.status), message: String(answer.message) };
}

async function download(actor: Actor, bucket: string, path: string): Promise<number> {
  const res = await fetch(objectUrl(bucket, path), {
    headers: { apikey: config.anonKey, authorization: `Bearer ${await jwtFor(actor)}` },
  });
  await res.arrayBuffer();
  return res.status;
}

describe('Storage API', () => {
  it('lets a subscriber upload an MP4 to their own episodes folder, and nowhere else', async () => {
    expect((await upload(owner, 'episodes', `${owner.id}/api/one.mp4`, 'video/mp4')).status).toBe(200);
    expect((await upload(owner, 'episodes', `${other.id}/api/one.mp4`, 'video/mp4')).logical).toBe('403');
    expect((await upload(admin, 'episodes', `${owner.id}/api/admin.mp4`, 'video/mp4')).logical).toBe('403');
  });

  it('refuses every upload of an account that never paid', async () => {
    const refused = await upload(neverPaid, 'episodes', `${neverPaid.id}/api/free.mp4`, 'video/mp4');
    expect(refused).toMatchObject({ logical: '403', message: 'An active subscription is required to upload files.' });
    const sign = await fetch(`${config.urls.api}/storage/v1/object/upload/sign/episodes/${neverPaid.id}/api/signed.mp4`, {
      method: 'POST',
      headers: { apikey: config.anonKey, authorization: `Bearer ${await jwtFor(neverPaid)}` },
    });
    expect(await sign.json()).toMatchObject({ statusCode: '403', message: 'An active subscription is required to upload files.' });
  });

  it('refuses a resumable upload that cannot fit the quota before any byte arrives', async () => {
    const full = await withDb(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      // 49 GiB of the starter plan's 50 GiB already stored.
      await db.query(
        `insert into storage.objects (bucket_id, name, owner_id, metadata) values ('episodes', $1, $2, jsonb_build_object('size', $3::bigint))`,
        [`${user.id}/old/big.mp4`, user.id, 49 * 1024 ** 3],
      );
      return user;
    });
    const meta = (value: string) => Buffer.from(value).toString('base64');
    const create = (length: number, name: string) =>
      jwtFor(full).then((jwt) =>
        fetch(`${config.urls.api}/storage/v1/upload/resumable`, {
          method: 'POST',
          headers: {
            apikey: config.anonKey,
            authorization: `Bearer ${jwt}`,
            'tus-resumable': '1.0.0',
            'upload-length': String(length),
            'upload-metadata': `bucketName ${meta('episodes')},objectName ${meta(`${full.id}/tus/${name}`)},contentType ${meta('video/mp4')}`,
          },
        }),
      );
    const refused = await create(2 * 1024 ** 3, 'too-big.mp4');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/^Storage quota reached: your plan keeps up to 53\.7 GB and 52\.6 GB are in use\./);
    const fits = await create(1024, 'small.mp4');
    expect(fits.status).toBe(201);
  });

  it('refuses a type the bucket does not allow', async () => {
    const refused = await upload(owner, 'episodes', `${owner.id}/api/clip.mp4`, 'image/png');
    expect(refused.logical).toBe('415');
  });

  it('takes no brand asset straight from a subscriber: only the api stores them, after checking their bytes', async () => {
    const playlist = new TextEncoder().encode('#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n');
    expect((await upload(owner, 'brand-assets', `${owner.id}/logo/mark.png`, 'image/png', playlist)).logical).toBe('403');
    expect((await upload(owner, 'brand-assets', `${owner.id}/podcastCover/cover.jpg`, 'image/jpeg')).logical).toBe('403');
  });

  it('lets the owner and an admin download, not another user', async () => {
    const path = `${owner.id}/api/one.mp4`;
    expect(await download(owner, 'episodes', path)).toBe(200);
    expect(await download(admin, 'episodes', path)).toBe(200);
    expect(await download(other, 'episodes', path)).not.toBe(200);
  });

  it('an upsert URL signed before submission cannot replace the file after it', async () => {
    const path = `${owner.id}/locked/episode.mp4`;
    const headers = { apikey: config.anonKey, authorization: `Bearer ${await jwtFor(owner)}`, 'x-upsert': 'true' };
    const sign = await fetch(`${config.urls.api}/storage/v1/object/upload/sign/episodes/${path}`, { method: 'POST', headers });
    const { url } = (await sign.json()) as { url: string };
    const put = (body: Uint8Array<ArrayBuffer>) =>
      fetch(`${config.urls.api}/storage/v1${url}`, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'x-upsert': 'true' }, body });
    expect((await put(MP4_HEAD)).status).toBe(200);
    // Before submission the URL may still replace the file.
    const second = new Uint8Array([...MP4_HEAD, 1, 2, 3]);
    expect((await put(second)).status).toBe(200);
    await withDb(async (db) => {
      await markEpisodeFileChecked(db, path);
      await db.query('begin');
      await queryAs(db, { id: owner.id }, `select public.submit_episode(array[$1], '{}')`, [path]);
      await db.query('commit');
    });

    const late = await put(new TextEncoder().encode('<html><script>alert(1)</script></html>'));
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ statusCode: '403', message: 'This file was submitted for processing and can no longer be replaced.' });
    const kept = await fetch(objectUrl('episodes', path), { headers: { apikey: config.anonKey, authorization: `Bearer ${await jwtFor(owner)}` } });
    expect(new Uint8Array(await kept.arrayBuffer())).toEqual(second);
  });
});
