// /api/airtable/user-data and /api/onboarding/*: accepted and refused requests, and that a
// refusal writes nothing (no profile change, no file left in brand-assets).
import { describe, expect, it } from 'vitest';
import { anonClient, config, withDb } from '../support/stack.ts';
import { createUser, type TestUser } from '../support/users.ts';
import { jpegBytes, mp4Bytes, pngBytes } from '../support/media-fixtures.ts';

const api = (path: string) => `${config.urls.api}/functions/v1/api/${path}`;

async function tokenOf(user: TestUser): Promise<string> {
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return data.session!.access_token;
}

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(api(path), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const firstTimeFields = {
  isFirstTimeOnboarding: true,
  firstName: 'Ada',
  lastName: 'Lovelace',
  podcastTitle: 'Engines',
  podcastDescription: 'Analytical thoughts',
  podcastAuthor: 'Ada',
  podcastPrimaryCategory: 'Technology',
  podcastLanguage: 'en',
  podcastTimezone: 'UTC+05:30',
  brandFont: 'Roboto',
  brandColorPrimary: '112233',
  brandColorSecondary: 'AABBCC',
  brandColorTertiary: 'FFFFFF',
};

const blob = (bytes: Buffer, type: string) => new Blob([new Uint8Array(bytes)], { type });

type Parts = Record<string, [Buffer, string, string] | undefined>;

function multipart(fields: unknown, files: Parts): FormData {
  const form = new FormData();
  form.append('fields', JSON.stringify(fields));
  for (const [slot, part] of Object.entries(files)) if (part) form.append(slot, blob(part[0], part[2]), part[1]);
  return form;
}

const goodFiles = (): Parts => ({
  logo: [pngBytes(64, 64), 'brand.png', 'image/png'],
  podcastCover: [jpegBytes(64, 64), 'cover.jpg', 'image/jpeg'],
  videoIntro: [mp4Bytes(1280, 720), 'intro.mp4', 'video/mp4'],
  clipOutro: [mp4Bytes(720, 1280), 'outro.mp4', 'video/mp4'],
});

async function brandObjects(userId: string): Promise<string[]> {
  return withDb(async (db) =>
    (await db.query(`select name from storage.objects where bucket_id = 'brand-assets' and name like $1 order by name`, [`${userId}/%`])).rows.map((row) => row.name),
  );
}

async function profileRow(userId: string) {
  return withDb(async (db) => (await db.query('select * from public.profiles where id = $1', [userId])).rows[0]);
}

describe('GET /api/airtable/user-data', () => {
  it('answers null before any profile data, 401 without a session', async () => {
    const user = await createUser('subscribed');
    expect(await call(await tokenOf(user), 'GET', 'airtable/user-data')).toEqual({ status: 200, body: null });
    const anonymous = await fetch(api('airtable/user-data'), { headers: { authorization: `Bearer ${config.anonKey}` } });
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /api/onboarding/submit-with-files and /complete', () => {
  it('stores the files in the caller folder, the fields in the profile, then completes onboarding', async () => {
    const user = await createUser('subscribed');
    const token = await tokenOf(user);
    const saved = await call(token, 'POST', 'onboarding/submit-with-files', multipart(firstTimeFields, goodFiles()));
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      podcastTitle: 'Engines',
      brandColorPrimary: '112233',
      podcastTimezone: 'UTC+05:30',
      emailAddress: user.email,
      logo: { exists: true, filename: 'brand.png' },
      podcastCover: { exists: true, filename: 'cover.jpg' },
      introVideoClip: { exists: true, filename: 'intro.mp4' },
      outroVideoClip: { exists: false, filename: null },
      outroAudioClip: { exists: true, filename: 'outro.mp4' },
    });
    const objects = await brandObjects(user.id);
    expect(objects).toHaveLength(4);
    expect(objects.every((name) => name.startsWith(`${user.id}/`))).toBe(true);

    const completed = await call(token, 'POST', 'onboarding/complete', { airtableRecordId: user.id, data: { userId: user.id, completedAt: new Date().toISOString() } });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ id: user.id, onboardingCompleted: true });

    const read = await call(token, 'GET', 'airtable/user-data');
    expect(read.body.logo).toEqual({ exists: true, filename: 'brand.png' });
  });

  it('replaces a file: the new one is stored, the old one removed', async () => {
    const user = await createUser('subscribed');
    const token = await tokenOf(user);
    await call(token, 'POST', 'onboarding/submit-with-files', multipart(firstTimeFields, goodFiles()));
    const before = await brandObjects(user.id);
    const replaced = await call(token, 'POST', 'onboarding/submit-with-files', multipart({}, { logo: [pngBytes(32, 32), 'new-logo.png', 'image/png'] }));
    expect(replaced.status).toBe(200);
    expect(replaced.body.logo).toEqual({ exists: true, filename: 'new-logo.png' });
    const after = await brandObjects(user.id);
    expect(after).toHaveLength(before.length);
    expect(after.filter((name) => name.includes('/logo/'))).toHaveLength(1);
    expect(after.find((name) => name.includes('/logo/'))).toMatch(/new-logo\.png$/);
  });

  const refusals: Array<[string, () => FormData, number, string]> = [
    ['a missing required field', () => multipart({ ...firstTimeFields, brandFont: '' }, goodFiles()), 400, 'Brand font is required'],
    ['a missing required file', () => multipart(firstTimeFields, { ...goodFiles(), logo: undefined }), 400, 'Brand logo is required'],
    ['a JPEG sent as the logo', () => multipart(firstTimeFields, { ...goodFiles(), logo: [jpegBytes(8, 8), 'brand.jpg', 'image/jpeg'] }), 415, 'Logo must be a PNG file'],
    ['a PNG renamed to .png but holding JPEG bytes', () => multipart(firstTimeFields, { ...goodFiles(), logo: [jpegBytes(8, 8), 'brand.png', 'image/png'] }), 415, 'Logo must be a PNG file'],
    ['an HLS playlist named and typed as a PNG logo', () => multipart(firstTimeFields, { ...goodFiles(), logo: [Buffer.from('#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n'), 'x.png', 'image/png'] }), 415, 'Logo must be a PNG file'],
    ['a non-MP4 clip', () => multipart(firstTimeFields, { ...goodFiles(), clipIntro: [pngBytes(9, 16), 'clip.mp4', 'video/mp4'] }), 415, 'Clip intro must be an MP4 file'],
    ['an oversized logo part', () => {
      const big = Buffer.alloc(10 * 1024 * 1024 + 1);
      pngBytes(4, 4).copy(big);
      return multipart(firstTimeFields, { ...goodFiles(), logo: [big, 'brand.png', 'image/png'] });
    }, 413, 'Logo must be at most 10 MB'],
    ['an unknown file part', () => multipart(firstTimeFields, { ...goodFiles(), avatar: [pngBytes(4, 4), 'me.png', 'image/png'] }), 400, 'Unknown file field: avatar'],
    ['a bad colour', () => multipart({ ...firstTimeFields, brandColorSecondary: '#12345' }, goodFiles()), 400, 'brandColorSecondary: Must be a 6 character HEX code without #'],
    ['a font outside the list', () => multipart({ ...firstTimeFields, brandFont: 'Comic Sans MS' }, goodFiles()), 400, 'brandFont: Brand font must be one font from the Google Fonts list'],
    ["another user's file path in the fields", () => multipart({ ...firstTimeFields, logoPath: '00000000-0000-0000-0000-000000000000/logo/x.png' }, goodFiles()), 400, 'logoPath'],
  ];
  for (const [name, body, status, message] of refusals) {
    it(`refuses ${name} with ${status} and writes nothing`, async () => {
      const user = await createUser('subscribed');
      const token = await tokenOf(user);
      const before = await profileRow(user.id);
      const refused = await call(token, 'POST', 'onboarding/submit-with-files', body());
      expect(refused.status).toBe(status);
      expect(refused.body.message).toContain(message);
      expect(await brandObjects(user.id)).toEqual([]);
      expect(await profileRow(user.id)).toEqual(before);
    });
  }

  it('refuses a body without the fields part', async () => {
    const user = await createUser('subscribed');
    const form = new FormData();
    form.append('logo', blob(pngBytes(4, 4), 'image/png'), 'brand.png');
    const refused = await call(await tokenOf(user), 'POST', 'onboarding/submit-with-files', form);
    expect(refused).toEqual({ status: 400, body: { message: 'The fields part is required' } });
    expect(await brandObjects(user.id)).toEqual([]);
  });

  it('refuses completion while required fields are missing, naming them', async () => {
    const user = await createUser('subscribed');
    const token = await tokenOf(user);
    await call(token, 'POST', 'onboarding/submit', { fields: { podcastTitle: 'Only a title' } });
    const refused = await call(token, 'POST', 'onboarding/complete', { airtableRecordId: user.id, data: { userId: user.id, completedAt: new Date().toISOString() } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('Brand font is required');
    expect(refused.body.message).toContain('Podcast artwork is required');
    expect((await profileRow(user.id)).onboarding_completed_at).toBeNull();
  });

  it("refuses completing another user's onboarding", async () => {
    const user = await createUser('subscribed');
    const other = await createUser('subscribed');
    const refused = await call(await tokenOf(user), 'POST', 'onboarding/complete', { data: { userId: other.id } });
    expect(refused.status).toBe(403);
  });
});

describe('POST /api/onboarding/submit', () => {
  it('saves only the given fields; blank clears; update mode needs no required field', async () => {
    const user = await createUser('onboarded');
    const token = await tokenOf(user);
    await call(token, 'POST', 'onboarding/submit', { fields: { podcastTitle: 'Kept', podcastWebsite: 'https://example.com' } });
    const saved = await call(token, 'POST', 'onboarding/submit', { fields: { brandColorTertiary: 'abcdef', podcastWebsite: '', isFirstTimeOnboarding: false } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ podcastTitle: 'Kept', brandColorTertiary: 'abcdef', podcastWebsite: null });
  });

  it('refuses missing fields in first-time mode and a body without fields', async () => {
    const user = await createUser('subscribed');
    const token = await tokenOf(user);
    const refused = await call(token, 'POST', 'onboarding/submit', { fields: { isFirstTimeOnboarding: true, podcastTitle: 'x' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('Podcast description is required');
    expect((await profileRow(user.id)).podcast_title).toBeNull();
    expect((await call(token, 'POST', 'onboarding/submit', {})).status).toBe(400);
    expect((await call(token, 'POST', 'onboarding/submit', { fields: { podcastLanguage: 'nl' } })).status).toBe(400);
  });
});

describe('brand assets only through the api', () => {
  it('refuses a brand asset uploaded straight to Storage and a path set through the REST API', async () => {
    const user = await createUser('subscribed');
    const token = await tokenOf(user);
    const headers = { apikey: config.anonKey, authorization: `Bearer ${token}` };
    const playlist = '#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n';
    const upload = await fetch(`${config.urls.api}/storage/v1/object/brand-assets/${user.id}/logo/x.png`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'image/png' },
      body: playlist,
    });
    expect(await upload.json()).toMatchObject({ statusCode: '403' });
    expect(await brandObjects(user.id)).toEqual([]);

    const patch = await fetch(`${config.urls.api}/rest/v1/profiles?id=eq.${user.id}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ logo_path: `${user.id}/logo/x.png` }),
    });
    expect(patch.status).toBe(403);
    expect((await patch.json()).code).toBe('42501');
    expect((await profileRow(user.id)).logo_path).toBeNull();
  });

  it('refuses files of an account that never paid, keeping nothing', async () => {
    const user = await createUser('new');
    const refused = await call(await tokenOf(user), 'POST', 'onboarding/submit-with-files', multipart({}, { logo: [pngBytes(16, 16), 'brand.png', 'image/png'] }));
    expect(refused).toEqual({ status: 403, body: { message: 'An active subscription is required to upload files.' } });
    expect(await brandObjects(user.id)).toEqual([]);
    expect((await profileRow(user.id)).logo_path).toBeNull();
  });
});

describe('POST /api/onboarding/delete-attachment', () => {
  it('deletes the file and clears the slot; refuses unknown or empty slots', async () => {
    const user = await createUser('subscribed');
    const token = await tokenOf(user);
    await call(token, 'POST', 'onboarding/submit-with-files', multipart(firstTimeFields, goodFiles()));
    const deleted = await call(token, 'POST', 'onboarding/delete-attachment', { fieldName: 'videoIntro' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.introVideoClip).toEqual({ exists: false, filename: null });
    expect((await brandObjects(user.id)).some((name) => name.includes('/videoIntro/'))).toBe(false);
    expect((await profileRow(user.id)).video_intro_path).toBeNull();

    expect(await call(token, 'POST', 'onboarding/delete-attachment', { fieldName: 'videoIntro' })).toEqual({ status: 404, body: { message: 'No videoIntro file to delete' } });
    expect((await call(token, 'POST', 'onboarding/delete-attachment', { fieldName: 'avatar' })).status).toBe(400);
  });

  it("never touches another user's files", async () => {
    const owner = await createUser('subscribed');
    const intruder = await createUser('subscribed');
    await call(await tokenOf(owner), 'POST', 'onboarding/submit-with-files', multipart(firstTimeFields, goodFiles()));
    const before = await brandObjects(owner.id);
    const intruderToken = await tokenOf(intruder);
    expect((await call(intruderToken, 'POST', 'onboarding/delete-attachment', { fieldName: 'logo' })).status).toBe(404);
    expect(await call(intruderToken, 'GET', 'airtable/user-data')).toEqual({ status: 200, body: null });
    expect(await brandObjects(owner.id)).toEqual(before);
  });
});
