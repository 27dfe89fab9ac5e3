// The tus wiring for one episode file: the library (fetched on demand) and an upload to Storage's TUS endpoint.
import { EPISODE_MIME_TYPE, EPISODES_BUCKET } from '@domain/episodes';
import type { Upload } from 'tus-js-client';
import { ApiError } from '@/lib/api-client';
import { anonKey, currentAccessToken, storageUrl } from '@/lib/supabase';
import { closeEpisodeUpload } from '../api/close-upload';
import { openEpisodeUpload } from '../api/open-upload';

/** Storage's TUS uploads take exactly 6 MiB chunks. */
const CHUNK_BYTES = 6 * 1024 * 1024;
/** The upload library's defaults (spec section 9). */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000];
const PROGRESS_THROTTLE_MS = 500;

type TusLibrary = typeof import('tus-js-client');

/** The upload library, fetched once; a failed fetch is tried again on the next call. */
let tusLibrary: Promise<TusLibrary> | null = null;
export function loadTus(): Promise<TusLibrary> {
  tusLibrary ??= import('tus-js-client').catch((error: unknown) => {
    tusLibrary = null;
    throw error;
  });
  return tusLibrary;
}

export interface EpisodeUploadEvents {
  /** The object path, once the upload exists on the server. */
  onPath: (path: string) => void;
  /** Bytes sent, at most every PROGRESS_THROTTLE_MS (and always at the end). */
  onProgress: (sent: number) => void;
  onSuccess: (path: string) => void;
  onError: (message: string) => void;
}

/** Why the server would not open an upload (its own words), or the spec's message. */
export class UploadRefused extends Error {}

export interface EpisodeUpload {
  file: File;
  upload: Upload;
  /**
   * Continues an earlier upload of this very file (its address is kept in local storage under the
   * file's fingerprint), or opens a new one on the server; answers the object path and whether it
   * continues. Throws UploadRefused when the server refuses to open one.
   */
  prepare: (uploadUrlFailed: string) => Promise<{ path: string; resumed: boolean }>;
  /** Stops the unfinished upload: the server drops its part and no longer counts it. */
  cancel: () => Promise<void>;
}

/** An upload of `file` into the user's folder of the `episodes` bucket, not yet started. */
export function episodeUpload(tus: TusLibrary, userId: string, file: File, events: EpisodeUploadEvents): EpisodeUpload {
  const metadata = {
    bucketName: EPISODES_BUCKET,
    objectName: '',
    contentType: EPISODE_MIME_TYPE,
    cacheControl: '3600',
  };
  let lastProgress = 0;
  const upload = new tus.Upload(file, {
    endpoint: `${storageUrl}/upload/resumable`,
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    headers: { apikey: anonKey, 'x-upsert': 'false' },
    metadata,
    fingerprint: async (f: File) => ['castloop-episode', userId, f.name, f.size, f.lastModified].join(':'),
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    // A long upload may outlive an access token: always send the current one.
    onBeforeRequest: async (request) => {
      const token = await currentAccessToken();
      if (token) request.setHeader('Authorization', `Bearer ${token}`);
    },
    onUploadUrlAvailable: () => events.onPath(metadata.objectName),
    onProgress: (sent) => {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_THROTTLE_MS && sent < file.size) return;
      lastProgress = now;
      events.onProgress(sent);
    },
    onSuccess: () => events.onSuccess(metadata.objectName),
    onError: (error) => events.onError(error.message),
  });
  const prepare = async (uploadUrlFailed: string) => {
    const previous = await upload.findPreviousUploads();
    const earlierName = previous[0]?.metadata.objectName;
    if (previous[0] && earlierName) {
      // Continue the earlier upload of this very file, under its original name.
      metadata.objectName = earlierName;
      upload.resumeFromPreviousUpload(previous[0]);
      return { path: earlierName, resumed: true };
    }
    try {
      metadata.objectName = (await openEpisodeUpload(file.name, file.size)).path;
    } catch (error) {
      throw new UploadRefused((error instanceof ApiError && error.response?.serverMessage) || uploadUrlFailed);
    }
    return { path: metadata.objectName, resumed: false };
  };
  const cancel = async () => {
    await upload.abort(true).catch(() => undefined);
    if (metadata.objectName) await closeEpisodeUpload(metadata.objectName);
  };
  return { file, upload, prepare, cancel };
}
