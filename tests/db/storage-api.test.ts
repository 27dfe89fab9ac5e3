// The bucket rules as the Storage API applies them (through the gateway, with user JWTs).
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '../support/stack.ts';
import { type Actor, createUser, jwtFor, withDb } from './db-support.ts';

let owner: Actor & { id: string };
let other: Actor & { id: string };
let admin: Actor & { id: string };

beforeAll(async () => {
  await withDb(async (db) => {
    owner = await createUser(db);
    other = await createUser(db);
    admin = { ...(await createUser(db, { admin: true })), admin: true };
  });
});

async function upload(
  actor: Actor,
  bucket: string,
  path: string,
  contentType: string,
): Promise<{ status: number; logical: string }> {
  const res = await fetch(`${config.urls.api}/storage/v1/object/${bucket}/${path}`, {
    method: 'POST',
    headers: { apikey: config.anonKey, authorization: `Bearer ${await jwtFor(actor)}`, 'content-type': contentType },
    body: new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]),
  });
  const body = await res.json();
  return { status: res.status, logical: String(body.statusCode ?? res.status) };
}

async function download(actor: Actor, bucket: string, path: string): Promise<number> {
  const res = await fetch(`${config.urls.api}/storage/v1/object/${bucket}/${path}`, {
    headers: { apikey: config.anonKey, authorization: `Bearer ${await jwtFor(actor)}` },
  });
  await res.arrayBuffer();
  return res.status;
}

describe('Storage API', () => {
  it('lets a user upload an MP4 to their own episodes folder, and nowhere else', async () => {
    expect((await upload(owner, 'episodes', `${owner.id}/api/one.mp4`, 'video/mp4')).status).toBe(200);
    expect((await upload(owner, 'episodes', `${other.id}/api/one.mp4`, 'video/mp4')).logical).toBe('403');
    expect((await upload(admin, 'episodes', `${owner.id}/api/admin.mp4`, 'video/mp4')).logical).toBe('403');
  });

  it('refuses a type the bucket does not allow', async () => {
    const refused = await upload(owner, 'episodes', `${owner.id}/api/clip.mp4`, 'image/png');
    expect(refused.logical).toBe('415');
  });

  it('keeps brand assets in their slots', async () => {
    expect((await upload(owner, 'brand-assets', `${owner.id}/logo/mark.png`, 'image/png')).status).toBe(200);
    expect((await upload(owner, 'brand-assets', `${owner.id}/logo/mark.jpg`, 'image/jpeg')).logical).toBe('403');
    expect((await upload(owner, 'brand-assets', `${owner.id}/podcastCover/cover.jpg`, 'image/jpeg')).status).toBe(200);
  });

  it('lets the owner and an admin download, not another user', async () => {
    const path = `${owner.id}/api/one.mp4`;
    expect(await download(owner, 'episodes', path)).toBe(200);
    expect(await download(admin, 'episodes', path)).toBe(200);
    expect(await download(other, 'episodes', path)).not.toBe(200);
  });
});
