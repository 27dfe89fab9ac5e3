// Resumable uploads of episode videos into the caller's folder of the `episodes` bucket, with
// tus-js-client (fetched when the dialog opens, not with the page) against Storage's TUS endpoint:
// 6 MiB chunks, automatic retries, per-file and overall progress, cancel and remove. Each
// upload's address is kept in local storage under a fingerprint of the file, so it continues
// from the server's offset instead of starting over. After a reload the file comes back from
// a service worker (held-files.ts) and its upload goes on by itself; after a closed browser or
// where that worker is unavailable, choosing the same file again does the same. Files are read
// a chunk at a time, never whole.
import { EPISODE_MIME_TYPE, EPISODES_BUCKET, episodeObjectPath, MAX_EPISODE_FILE_BYTES, MAX_EPISODE_FILES } from '@domain/episodes';
import type { Upload } from 'tus-js-client';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { anonKey, currentAccessToken, storageUrl } from '@/lib/supabase';
import { notify } from '@/lib/toast';
import { episodeTexts as t } from '../texts';
import { heldFiles, holdFile, HOLD_PING_MS, pingHeldFiles, releaseFile } from './held-files';
import { readRemembered, type Remembered, writeRemembered } from './remembered';

/** Storage's TUS uploads take exactly 6 MiB chunks. */
const CHUNK_BYTES = 6 * 1024 * 1024;
/** The upload library's defaults (spec section 9). */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000];
const PROGRESS_THROTTLE_MS = 500;


/** The upload library, fetched once; a failed fetch is tried again on the next call. */
let tusLibrary: Promise<typeof import('tus-js-client')> | null = null;
function loadTus(): Promise<typeof import('tus-js-client')> {
  tusLibrary ??= import('tus-js-client').catch((error: unknown) => {
    tusLibrary = null;
    throw error;
  });
  return tusLibrary;
}

export type UploadStatus = 'uploading' | 'uploaded' | 'failed';

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  status: UploadStatus;
  bytesUploaded: number;
  /** The object path, known once the upload exists on the server. */
  path: string | null;
  error: string | null;
}

export function useEpisodeUploads(userId: string) {
  const [items, setItems] = useState<UploadItem[]>(() =>
    readRemembered(userId).uploaded.map((file) => ({ ...file, id: crypto.randomUUID(), status: 'uploaded', bytesUploaded: file.size, error: null })),
  );
  const [interrupted, setInterrupted] = useState(() => readRemembered(userId).interrupted);
  const [problem, setProblem] = useState<string | null>(null);
  const uploads = useRef(new Map<string, { upload: Upload; file: File }>());
  const batch = useRef({ started: 0, finished: 0 });
  const restored = useRef(false);
  const heldPrefix = `${userId}/`;

  // Fetch the library while the user picks files, so the first upload starts at once.
  useEffect(() => {
    loadTus().catch(() => undefined);
  }, []);

  // Remember what survives a reload: finished files, and unfinished ones to continue.
  useEffect(() => {
    const remembered: Remembered = {
      uploaded: items.flatMap((item) => (item.status === 'uploaded' && item.path ? [{ name: item.name, size: item.size, path: item.path }] : [])),
      interrupted: [
        ...interrupted.filter((entry) => !items.some((item) => item.name === entry.name && item.size === entry.size)),
        ...items.filter((item) => item.status !== 'uploaded').map(({ id, name, size }) => ({ key: heldPrefix + id, name, size })),
      ],
    };
    writeRemembered(userId, remembered);
  }, [items, interrupted, userId, heldPrefix]);

  // While uploads run, keep the worker holding their files alive.
  const uploading = items.some((item) => item.status === 'uploading');
  useEffect(() => {
    if (!uploading) return;
    const timer = setInterval(() => void pingHeldFiles(), HOLD_PING_MS);
    return () => clearInterval(timer);
  }, [uploading]);

  const update = useCallback((id: string, change: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const start = useCallback(
    async (id: string, file: File) => {
      let tus: typeof import('tus-js-client');
      try {
        tus = await loadTus();
      } catch {
        update(id, { status: 'failed', error: t.uploadUrlFailed });
        return;
      }
      const metadata = {
        bucketName: EPISODES_BUCKET,
        objectName: episodeObjectPath(userId, crypto.randomUUID(), file.name),
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
        onUploadUrlAvailable: () => update(id, { path: metadata.objectName }),
        onProgress: (sent) => {
          const now = Date.now();
          if (now - lastProgress < PROGRESS_THROTTLE_MS && sent < file.size) return;
          lastProgress = now;
          update(id, { bytesUploaded: sent });
        },
        onSuccess: () => {
          uploads.current.delete(id);
          void releaseFile(heldPrefix + id);
          update(id, { status: 'uploaded', bytesUploaded: file.size, path: metadata.objectName, error: null });
          batch.current.finished += 1;
          if (batch.current.finished === batch.current.started) {
            notify.success(t.filesUploadedTitle, { description: t.filesUploaded(batch.current.finished) });
            batch.current = { started: 0, finished: 0 };
          }
        },
        onError: (error) => update(id, { status: 'failed', error: error.message }),
      });
      uploads.current.set(id, { upload, file });
      const previous = await upload.findPreviousUploads();
      if (previous[0]) {
        // Continue the earlier upload of this very file, under its original name.
        metadata.objectName = previous[0].metadata.objectName ?? metadata.objectName;
        upload.resumeFromPreviousUpload(previous[0]);
      }
      update(id, { path: previous[0] ? metadata.objectName : null });
      upload.start();
    },
    [update, userId, heldPrefix],
  );

  /** Starts uploading accepted files, as one batch for the success toast. */
  const begin = useCallback(
    (accepted: Array<{ item: UploadItem; file: File }>) => {
      if (accepted.length === 0) return;
      for (const { item, file } of accepted) {
        batch.current.started += 1;
        void start(item.id, file);
      }
      setItems((current) => [...current, ...accepted.map(({ item }) => item)]);
      setInterrupted((current) => current.filter((entry) => !accepted.some(({ item }) => item.name === entry.name && item.size === entry.size)));
    },
    [start],
  );

  // After a reload: continue the unfinished uploads whose files the worker still holds.
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const waiting = readRemembered(userId).interrupted;
    if (!waiting.some((entry) => entry.key)) return;
    void heldFiles(heldPrefix).then((files) => {
      begin(
        waiting.flatMap((entry) => {
          const file = entry.key ? files.get(entry.key) : undefined;
          if (!entry.key || !file || file.name !== entry.name || file.size !== entry.size) return [];
          const item: UploadItem = { id: entry.key.slice(heldPrefix.length), name: file.name, size: file.size, status: 'uploading', bytesUploaded: 0, path: null, error: null };
          return [{ item, file }];
        }),
      );
    });
  }, [begin, heldPrefix, userId]);

  const addFiles = useCallback(
    (files: File[]) => {
      setProblem(null);
      const accepted: Array<{ item: UploadItem; file: File }> = [];
      for (const file of files) {
        if (file.type !== EPISODE_MIME_TYPE) {
          setProblem(t.notMp4(file.name));
          continue;
        }
        if (file.size > MAX_EPISODE_FILE_BYTES) {
          setProblem(t.tooLarge(file.name));
          continue;
        }
        if (items.length + accepted.length >= MAX_EPISODE_FILES) {
          setProblem(t.tooMany);
          break;
        }
        const item: UploadItem = { id: crypto.randomUUID(), name: file.name, size: file.size, status: 'uploading', bytesUploaded: 0, path: null, error: null };
        accepted.push({ item, file });
        void holdFile(heldPrefix + item.id, file);
      }
      begin(accepted);
    },
    [items.length, begin, heldPrefix],
  );

  const retry = useCallback(
    (id: string) => {
      const running = uploads.current.get(id);
      if (!running) return;
      update(id, { status: 'uploading', error: null });
      running.upload.start();
    },
    [update],
  );

  /** Stops an unfinished upload (the server drops its part) or forgets a finished file. */
  const remove = useCallback(
    async (id: string) => {
      const item = items.find((entry) => entry.id === id);
      const running = uploads.current.get(id);
      uploads.current.delete(id);
      void releaseFile(heldPrefix + id);
      if (item?.status === 'uploading') batch.current.started -= 1;
      setItems((current) => current.filter((entry) => entry.id !== id));
      if (running && item?.status !== 'uploaded') await running.upload.abort(true).catch(() => undefined);
      if (item?.status === 'uploaded' && item.path) {
        const token = await currentAccessToken();
        await fetch(`${storageUrl}/object/${EPISODES_BUCKET}/${item.path}`, {
          method: 'DELETE',
          headers: { apikey: anonKey, Authorization: `Bearer ${token ?? anonKey}` },
        }).catch(() => undefined);
      }
    },
    [items, heldPrefix],
  );

  /** After a submission: the files now belong to the episode. */
  const clear = useCallback(() => {
    uploads.current.clear();
    setItems([]);
    setInterrupted([]);
  }, []);

  const overall = useMemo(() => {
    const total = items.reduce((sum, item) => sum + item.size, 0);
    const sent = items.reduce((sum, item) => sum + item.bytesUploaded, 0);
    return total === 0 ? 0 : Math.floor((sent / total) * 100);
  }, [items]);

  return {
    items,
    interrupted,
    problem,
    overall,
    uploading,
    uploadedPaths: items.flatMap((item) => (item.status === 'uploaded' && item.path ? [item.path] : [])),
    addFiles,
    retry,
    remove,
    clear,
  };
}
