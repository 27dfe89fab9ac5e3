// Resumable uploads of episode videos into the caller's folder of the `episodes` bucket, with
// tus-js-client (fetched when the dialog opens, not with the page) against Storage's TUS endpoint:
// 6 MiB chunks, automatic retries, per-file and overall progress, cancel and remove. Each
// upload's address is kept in local storage under a fingerprint of the file, so it continues
// from the server's offset instead of starting over. After a reload the file comes back from
// a service worker (held-files.ts) and its upload goes on by itself; after a closed browser or
// where that worker is unavailable, choosing the same file again does the same. Files are read
// a chunk at a time, never whole.
import { EPISODE_MIME_TYPE, MAX_EPISODE_FILE_BYTES, MAX_EPISODE_FILES } from '@domain/episodes';
import { blobReader, mp4DurationSeconds } from '@domain/mp4-header';
import { useCallback, useEffect, useRef, useState } from 'react';
import { notify } from '@/lib/toast';
import { removeUploadedFile } from '../api/remove-uploaded-file';
import { episodeTexts as t } from '../texts';
import { holdFile, releaseFile } from './held-files';
import { secondsLeft, type RateSample } from './time-left';
import { useHeldFilesAlive, useResumeAfterReload } from './resume-after-reload';
import { episodeUpload, loadTus, UploadRefused, type EpisodeUpload } from './tus-upload';
import { useUploadQueue, type UploadItem } from './upload-queue';

/** The uploaded videos' length together (one episode), or null while any of them is unknown. */
function videoSecondsOf(items: UploadItem[]): number | null {
  const uploaded = items.filter((item) => item.status === 'uploaded');
  if (uploaded.length === 0) return null;
  let total = 0;
  for (const item of uploaded) {
    if (typeof item.durationSeconds !== 'number') return null;
    total += item.durationSeconds;
  }
  return total;
}

export function useEpisodeUploads(userId: string) {
  const heldPrefix = `${userId}/`;
  const { items, setItems, interrupted, setInterrupted, update, overall } = useUploadQueue(userId, heldPrefix);
  const [problem, setProblem] = useState<string | null>(null);
  const uploads = useRef(new Map<string, EpisodeUpload>());
  const batch = useRef({ started: 0, finished: 0 });
  // Where each upload's rate is measured from (its first progress report on this page).
  const rateStarts = useRef(new Map<string, RateSample>());

  // Fetch the library while the user picks files, so the first upload starts at once.
  useEffect(() => {
    loadTus().catch(() => undefined);
  }, []);

  const uploading = items.some((item) => item.status === 'uploading');
  useHeldFilesAlive(uploading);

  const start = useCallback(
    async (id: string, file: File) => {
      let tus: typeof import('tus-js-client');
      try {
        tus = await loadTus();
      } catch {
        update(id, { status: 'failed', error: t.uploadUrlFailed });
        return;
      }
      const prepared = episodeUpload(tus, userId, file, {
        onPath: (path) => update(id, { path }),
        onProgress: (sent) => {
          const now = Date.now();
          if (!rateStarts.current.has(id)) rateStarts.current.set(id, { at: now, bytes: sent });
          update(id, { bytesUploaded: sent, secondsLeft: secondsLeft(rateStarts.current.get(id), sent, file.size, now) });
        },
        onSuccess: (path) => {
          uploads.current.delete(id);
          void releaseFile(heldPrefix + id);
          rateStarts.current.delete(id);
          update(id, { status: 'uploaded', bytesUploaded: file.size, path, error: null, secondsLeft: null });
          batch.current.finished += 1;
          if (batch.current.finished === batch.current.started) {
            notify.success(t.filesUploadedTitle, { description: t.filesUploaded(batch.current.finished) });
            batch.current = { started: 0, finished: 0 };
          }
        },
        onError: (message) => {
          rateStarts.current.delete(id);
          update(id, { status: 'failed', error: message, secondsLeft: null });
        },
      });
      uploads.current.set(id, prepared);
      try {
        const { path, resumed } = await prepared.prepare(t.uploadUrlFailed);
        update(id, { path, resumed });
      } catch (error) {
        update(id, { status: 'failed', error: error instanceof UploadRefused ? error.message : t.uploadUrlFailed });
        return;
      }
      prepared.upload.start();
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
      // Each video's length, from its header, so the dialog can check the trim times before submitting.
      for (const { item, file } of accepted) {
        void mp4DurationSeconds(blobReader(file), file.size)
          .catch(() => null)
          .then((durationSeconds) => update(item.id, { durationSeconds }));
      }
    },
    [start, setItems, setInterrupted, update],
  );

  useResumeAfterReload(userId, heldPrefix, begin);

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
      // An upload the server would not open is asked for again; one under way goes on.
      if (items.find((item) => item.id === id)?.path) running.upload.start();
      else void start(id, running.file);
    },
    [items, start, update],
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
      if (running && item?.status !== 'uploaded') await running.cancel();
      if (item?.status === 'uploaded' && item.path) await removeUploadedFile(item.path);
    },
    [items, heldPrefix, setItems],
  );

  /** Forgets the unfinished uploads a reload left (their files are no longer held either). */
  const dismissInterrupted = useCallback(() => {
    for (const entry of interrupted) if (entry.key) void releaseFile(entry.key);
    setInterrupted([]);
  }, [interrupted, setInterrupted]);

  /** After a submission: the files now belong to the episode. */
  const clear = useCallback(() => {
    uploads.current.clear();
    setItems([]);
    setInterrupted([]);
  }, [setItems, setInterrupted]);

  return {
    items,
    interrupted,
    problem,
    overall,
    uploading,
    uploadedPaths: items.flatMap((item) => (item.status === 'uploaded' && item.path ? [item.path] : [])),
    videoSeconds: videoSecondsOf(items),
    addFiles,
    dismissInterrupted,
    retry,
    remove,
    clear,
  };
}
