// Episodes (spec sections 4, 5 and 7): submission (the database decides and writes the episode,
// its log and the outbox row in one transaction: submit_episode()), statistics with gating, the
// caller's list, and signed upload URLs for clients that PUT a file instead of using TUS.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  type Episode,
  EPISODES_BUCKET,
  episodeObjectPath,
  MAX_EPISODE_FILE_BYTES,
  submitEpisodePayloadSchema,
} from '../../_shared/domain/episodes.ts';
import { settings } from '../../_shared/config.ts';
import { db } from '../../_shared/db.ts';
import { databaseError, isUnstorableText, unstorableTextMessage, type DatabaseError } from '../../_shared/database-errors.ts';
import { mediaTypeOf, SIGNATURE_BYTES } from '../../_shared/domain/file-signatures.ts';
import { HttpError, parseJsonBody } from '../../_shared/http-error.ts';
import { readAsCaller, requireCaller } from '../../_shared/session.ts';
import { userClient } from '../../_shared/supabase-clients.ts';
import { readHead } from '../../_shared/domain-server/capped-response.ts';
import { type ByteReader, mp4DurationSeconds } from '../../_shared/domain/mp4-header.ts';

const SUBMIT_FAILED = 'Could not submit the episode';

/**
 * An entry of uploadUrls as an object path in the `episodes` bucket: a bare path, or a Storage
 * URL (TUS or signed upload) whose path names the bucket.
 */
function objectPathOf(uploadUrl: string): string {
  if (!/^https?:\/\//i.test(uploadUrl) && !uploadUrl.startsWith('/')) return uploadUrl;
  const notAFile = () => new HttpError(400, `Not a file in the ${EPISODES_BUCKET} storage: ${uploadUrl}`);
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(uploadUrl, 'http://x').pathname);
  } catch {
    // An address that does not parse (`http://[::1`) or a path with broken percent-encoding.
    throw notAFile();
  }
  const marker = `/${EPISODES_BUCKET}/`;
  const at = pathname.indexOf(marker);
  if (!pathname.includes('/storage/v1/object/') || at < 0) throw notAFile();
  return pathname.slice(at + marker.length);
}

const NOT_MP4 = 'Only MP4 video files can be submitted.';

interface StoredObject {
  id: string;
  version: string | null;
  size: number;
}

/** The object `file` of the `episodes` bucket as Postgres has it now, or null. */
async function episodeObject(file: string): Promise<StoredObject | null> {
  try {
    const [object] = await db()<StoredObject[]>`
      select id, version, private.object_bytes(metadata)::float8 as size
        from storage.objects where bucket_id = ${EPISODES_BUCKET} and name = ${file}`;
    return object ?? null;
  } catch (error) {
    throw databaseError(error as DatabaseError, SUBMIT_FAILED);
  }
}

/** Storage refused a ranged read with this status. */
class StorageReadError extends Error {
  constructor(readonly status: number) {
    super(`Storage answered ${status} to a ranged read`);
  }
}

/**
 * At most `length` bytes of a stored object from `offset`. A Storage that ignores the range is
 * trusted only for a read from the start (the first bytes are then the right ones).
 */
async function readStoredRange(url: string, key: string, offset: number, length: number): Promise<Uint8Array> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}`, apikey: key, range: `bytes=${offset}-${offset + length - 1}` } });
  if (res.status !== 206 && !(res.status === 200 && offset === 0)) {
    await res.body?.cancel();
    throw new StorageReadError(res.status);
  }
  return res.body ? await readHead(res.body, length) : new Uint8Array(0);
}

/**
 * Ranged reads one file's length may cost: a real MP4's movie header is found in about six
 * (ftyp, free or wide, mdat, moov, then mvhd and its fields); a file of many tiny boxes made to
 * cost Storage a read per box stops here (issue 39, item 7: 65 reads a file before).
 */
const MAX_LENGTH_READS = 8;

/** Past the read budget: the length counts as unknown. */
class ReadBudgetSpent extends Error {}

/**
 * The video's length from its MP4 header, read with a few small ranged requests; null when the
 * header cannot be read that way within the budget (the worker's own check then decides, after
 * the download).
 */
function storedVideoSeconds(url: string, key: string, size: number): Promise<number | null> {
  let reads = 0;
  const reader: ByteReader = (offset, length) => {
    reads += 1;
    if (reads > MAX_LENGTH_READS) return Promise.reject(new ReadBudgetSpent());
    return readStoredRange(url, key, offset, length);
  };
  return mp4DurationSeconds(reader, size).catch(() => null);
}

/**
 * Each file must be an MP4 on its bytes (an `ftyp` box first), whatever its name and declared
 * type: its first bytes are read from Storage (service role, caller's own folder only) before
 * the submission is written. Each file that passes is recorded at the version it had before
 * the read (private.checked_episode_files), with its length when the header says it:
 * submit_episode() takes only files recorded at their current version (so calling it straight,
 * or replacing a file after its check, is refused) and checks the trim times against the lengths.
 * The reads are the one raw fetch to Storage: storage-js's `download` cannot ask for a range (its
 * fetch parameters take no headers), and without one Storage starts sending the whole file.
 */
async function requireMp4Files(caller: { userId: string }, files: string[]): Promise<void> {
  const { serviceRoleKey: key, supabaseUrl } = settings();
  await Promise.all(
    files.map(async (file) => {
      const notFound = () => new HttpError(404, `File ${file} was not found in storage.`);
      const object = await episodeObject(file);
      if (!object) throw notFound();
      const url = `${supabaseUrl}/storage/v1/object/${EPISODES_BUCKET}/${file.split('/').map(encodeURIComponent).join('/')}`;
      const head = await readStoredRange(url, key, 0, SIGNATURE_BYTES).catch((error: unknown) => {
        if (!(error instanceof StorageReadError)) throw error;
        if (error.status === 400 || error.status === 404) throw notFound();
        throw new HttpError(502, `Could not read ${file} from storage (${error.status})`);
      });
      if (mediaTypeOf(head) !== 'video/mp4') throw new HttpError(415, `${NOT_MP4} ${file} is not an MP4 video.`);
      const seconds = await storedVideoSeconds(url, key, object.size);
      // A write after the lookup gave the object a new version: this record then matches nothing.
      // Records over a day old go (never this one: one statement may not delete and update a row).
      await db()`
        with expired as (delete from private.checked_episode_files
                          where checked_at < now() - interval '1 day' and object_id <> ${object.id}::uuid)
        insert into private.checked_episode_files (object_id, version, duration_seconds)
        values (${object.id}::uuid, ${object.version}, ${seconds})
        on conflict (object_id) do update
          set version = excluded.version, checked_at = excluded.checked_at, duration_seconds = excluded.duration_seconds`;
    }),
  );
}

export const episodeRoutes = new Hono();

episodeRoutes.post('/episodes/submit-direct-storage', async (c) => {
  const caller = await requireCaller(c);
  const { uploadUrls, episodeData } = await parseJsonBody(c.req.raw, submitEpisodePayloadSchema);
  const files = uploadUrls.map(objectPathOf);
  if (files.some((file) => !/\.mp4$/i.test(file))) throw new HttpError(400, NOT_MP4);
  // A name no storage can hold is the client's mistake, before anything is asked.
  if (files.some(isUnstorableText)) throw new HttpError(400, `Could not submit the episode: ${unstorableTextMessage}`);
  if (files.some((file) => !file.startsWith(`${caller.userId}/`))) throw new HttpError(403, 'Only your own uploaded files can be submitted.');
  // The month's room and the gating first: a submission that will be refused costs no reads of its files.
  const room = await userClient(caller.accessToken).rpc('check_episode_submission');
  if (room.error) throw databaseError(room.error, SUBMIT_FAILED);
  await requireMp4Files(caller, files);
  const { data, error } = await userClient(caller.accessToken).rpc('submit_episode', { files, options: episodeData });
  if (error) throw databaseError(error, SUBMIT_FAILED);
  return c.json({ success: true, episode: data }, 201);
});

// A failed episode of the caller's, queued again (retry_episode()): 404 not the caller's, 409 not
// failed, files gone or no room left this month.
episodeRoutes.post('/episodes/:id/retry', async (c) => {
  const caller = await requireCaller(c);
  const id = c.req.param('id');
  if (!z.uuid().safeParse(id).success) throw new HttpError(404, 'No such episode.');
  const { data, error } = await userClient(caller.accessToken).rpc('retry_episode', { episode_id: id });
  if (error) throw databaseError(error, 'Could not retry the episode');
  return c.json({ success: true, episode: data });
});

episodeRoutes.get('/episodes/stats', async (c) => {
  const caller = await requireCaller(c);
  return c.json(await readAsCaller(caller, 'select public.dashboard_stats() as result'));
});

episodeRoutes.get('/episodes', async (c) => {
  const caller = await requireCaller(c);
  const requested = Number(c.req.query('limit') ?? 100);
  const limit = Number.isInteger(requested) && requested > 0 ? Math.min(requested, 1000) : 100;
  // Filtered by owner explicitly (RLS alone would also admit an admin's view of everyone), so
  // the (user_id, submitted_at) index serves it however many episodes others have. The
  // processing of each episode's latest attempt (a retry or resubmission is processed again;
  // null when the webhook took it) comes in the same query.
  const episodes = (await readAsCaller(
    caller,
    `select coalesce(jsonb_agg(jsonb_build_object(
         'id', e.id, 'title', e.title, 'submittedAt', e.submitted_at,
         'processing', (select case when p.id is not null then
                                 jsonb_build_object('status', p.status, 'stage', p.stage, 'progress', p.progress,
                                                    'failureReason', p.failure_reason, 'failurePermanent', p.failure_permanent,
                                                    'updatedAt', p.updated_at) end
                          from public.submission_logs l
                          left join public.episode_processing p on p.submission_log_id = l.id
                         where l.episode_id = e.id
                         order by l.submitted_at desc, l.id desc limit 1)
       ) order by e.submitted_at desc), '[]'::jsonb) as result
       from (select id, title, submitted_at from public.episodes
              where user_id = (select auth.uid()) order by submitted_at desc limit ${limit}) e`,
  )) as Episode[];
  return c.json(episodes);
});

/**
 * An upload's optional body: a file name for the object path and the size it will have (anything
 * else: the defaults, the largest file a bucket takes). Declared sizes count against the quota
 * until the file lands (open_episode_upload()).
 */
const uploadRequestSchema = z.object({ fileName: z.unknown().optional(), size: z.unknown().optional() });

// Opens an episode upload (its name, and its declared size held against the quota) and answers
// a signed URL for one PUT of it; the SPA's resumable upload goes to the same path.
episodeRoutes.post('/objects/upload', async (c) => {
  const caller = await requireCaller(c);
  const { fileName: named, size } = await parseJsonBody(c.req.raw, uploadRequestSchema);
  const fileName = typeof named === 'string' && named.trim() ? named.trim() : 'episode.mp4';
  const bytes = typeof size === 'number' && Number.isSafeInteger(size) ? size : MAX_EPISODE_FILE_BYTES;
  const objectPath = episodeObjectPath(caller.userId, crypto.randomUUID(), fileName);
  const client = userClient(caller.accessToken);
  const { data: opened, error: openError } = await client.rpc('open_episode_upload', { name: objectPath, bytes });
  if (openError) throw databaseError(openError, 'Failed to get upload URL');
  const { data, error } = await client.storage.from(EPISODES_BUCKET).createSignedUploadUrl(objectPath);
  if (error || !data) throw new HttpError(403, 'Failed to get upload URL');
  const { expiresAt } = z.object({ expiresAt: z.string() }).parse(opened);
  return c.json({ uploadURL: data.signedUrl, path: objectPath, expiresAt });
});

const closeUploadSchema = z.object({ path: z.string().min(1).max(1024) });

// The caller cancelled an unfinished upload: it no longer counts against the quota.
episodeRoutes.delete('/objects/upload', async (c) => {
  const caller = await requireCaller(c);
  const { path } = await parseJsonBody(c.req.raw, closeUploadSchema);
  const { error } = await userClient(caller.accessToken).rpc('close_episode_upload', { name: path });
  if (error) throw databaseError(error, 'Could not cancel the upload');
  return c.body(null, 204);
});
