// A NUL character anywhere a client names or describes an object is the client's mistake: every
// Storage endpoint answers 400 with Storage's error body, as upstream does, never a 500 (issue
// 39, item 5: Postgres cannot store NUL in text or JSON, and the error escaped as a 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buckets, setUpTestBuckets, storageUrl, tearDownTestBuckets, testUser, type TestUser } from './storage-support.ts';

let alice: TestUser;

beforeAll(async () => {
  await setUpTestBuckets();
  alice = await testUser();
});
afterAll(() => tearDownTestBuckets());

const NUL = '\u0000';

async function answer(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${storageUrl}${path}`, {
    method,
    body: init.body,
    headers: { authorization: `Bearer ${alice.jwt}`, ...init.headers },
  });
  const text = await res.text();
  return { status: res.status, text };
}

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('a NUL in what a client sends to Storage', () => {
  it('answers 400 on every endpoint that takes a name, a prefix, a path list or metadata', async () => {
    const own = `${alice.id}/file.txt`;
    const named = `${alice.id}/a${NUL}b.txt`;
    const encoded = named.split('/').map(encodeURIComponent).join('/');
    const metadata = Buffer.from(JSON.stringify({ label: `x${NUL}y` })).toString('base64');
    const cases: [string, Promise<{ status: number; text: string }>][] = [
      ['upload to a name', answer('POST', `/object/${buckets.private}/${encoded}`, { body: 'x', headers: { 'content-type': 'text/plain' } })],
      ['upload with metadata', answer('POST', `/object/${buckets.private}/${own}`, { body: 'x', headers: { 'content-type': 'text/plain', 'x-metadata': metadata } })],
      ['download a name', answer('GET', `/object/${buckets.private}/${encoded}`)],
      ['describe a name', answer('GET', `/object/info/${buckets.private}/${encoded}`)],
      ['sign a name', answer('POST', `/object/sign/${buckets.private}/${encoded}`, json({ expiresIn: 60 }))],
      ['sign an upload to a name', answer('POST', `/object/upload/sign/${buckets.private}/${encoded}`)],
      ['list a prefix', answer('POST', `/object/list/${buckets.private}`, json({ prefix: `${alice.id}${NUL}` }))],
      ['list a search', answer('POST', `/object/list/${buckets.private}`, json({ prefix: alice.id, search: `a${NUL}` }))],
      ['list-v2 a prefix', answer('POST', `/object/list-v2/${buckets.private}`, json({ prefix: `${alice.id}${NUL}` }))],
      ['delete a batch', answer('DELETE', `/object/${buckets.private}`, json({ prefixes: [named] }))],
      ['sign a batch', answer('POST', `/object/sign/${buckets.private}`, json({ expiresIn: 60, paths: [named] }))],
      ['move', answer('POST', '/object/move', json({ bucketId: buckets.private, sourceKey: own, destinationKey: named }))],
      ['copy', answer('POST', '/object/copy', json({ bucketId: buckets.private, sourceKey: named, destinationKey: own }))],
    ];
    for (const [what, pending] of cases) {
      const { status, text } = await pending;
      expect(status, `${what}: ${text}`).toBe(400);
      expect(JSON.parse(text), what).toMatchObject({ statusCode: '400', error: expect.any(String), message: expect.any(String) });
    }
  });

  it('answers 400 to a resumable upload naming or describing its object with a NUL', async () => {
    const tus = (metadata: Record<string, string>) =>
      fetch(`${storageUrl}/upload/resumable`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${alice.jwt}`,
          'tus-resumable': '1.0.0',
          'upload-length': '4',
          'upload-metadata': Object.entries(metadata).map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`).join(','),
        },
      });
    const base = { bucketName: buckets.private, contentType: 'text/plain' };
    for (const metadata of [{ ...base, objectName: `${alice.id}/a${NUL}b.txt` }, { ...base, objectName: `${alice.id}/ok.txt`, metadata: JSON.stringify({ label: `x${NUL}` }) }]) {
      const res = await tus(metadata);
      expect(res.status, JSON.stringify(metadata)).toBe(400);
      await res.body?.cancel();
    }
  });
});
