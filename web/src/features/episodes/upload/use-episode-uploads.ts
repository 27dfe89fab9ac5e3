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
import { useCallback, useEffect, useState } from 'react';
import { removeUploadedFile } from '../api/remove-uploaded-file';
import { episodeTexts as t } from '../texts';
import { holdFile, releaseFile } from './held-files';
import { useHeldFilesAlive, useResumeAfterReload } from './resume-after-reload';
import { loadTus } from './tus-upload';
import { useUploadQueue, type UploadItem } from './upload-queue';
import { useRunningUploads } from './use-running-uploads';

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

  // Fetch the library while the user picks files, so the first upload starts at once.
  useEffect(() => {
    loadTus().catch(() => undefined);
  }, []);

  const uploading = items.some((item) => item.status === 'uploading');
  useHeldFilesAlive(uploading);

  const { startBatch, retry: retryUpload, detach, forgetAll } = useRunningUploads(userId, heldPrefix, update);

  /** Starts uploading accepted files, as one batch for the success toast. */
  const begin = useCallback(
    (accepted: Array<{ item: UploadItem; file: File }>) => {
      if (accepted.length === 0) return;
      startBatch(accepted);
      setItems((current) => [...current, ...accepted.map(({ item }) => item)]);
      setInterrupted((current) => current.filter((entry) => !accepted.some(({ item }) => item.name === entry.name && item.size === entry.size)));
      // Each video's length, from its header, so the dialog can check the trim times before submitting.
      for (const { item, file } of accepted) {
        void mp4DurationSeconds(blobReader(file), file.size)
          .catch(() => null)
          .then((durationSeconds) => update(item.id, { durationSeconds }));
      }
    },
    [startBatch, setItems, setInterrupted, update],
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
    (id: string) => retryUpload(id, Boolean(items.find((item) => item.id === id)?.path)),
    [items, retryUpload],
  );

  /** Stops an unfinished upload (the server drops its part) or forgets a finished file. */
  const remove = useCallback(
    async (id: string) => {
      const item = items.find((entry) => entry.id === id);
      const running = detach(id, item?.status);
      setItems((current) => current.filter((entry) => entry.id !== id));
      if (running && item?.status !== 'uploaded') await running.cancel();
      if (item?.status === 'uploaded' && item.path) await removeUploadedFile(item.path);
    },
    [items, detach, setItems],
  );

  /** Forgets the unfinished uploads a reload left (their files are no longer held either). */
  const dismissInterrupted = useCallback(() => {
    for (const entry of interrupted) if (entry.key) void releaseFile(entry.key);
    setInterrupted([]);
  }, [interrupted, setInterrupted]);

  /** After a submission: the files now belong to the episode. */
  const clear = useCallback(() => {
    forgetAll();
    setItems([]);
    setInterrupted([]);
  }, [forgetAll, setItems, setInterrupted]);

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

export type EpisodeUploads = ReturnType<typeof useEpisodeUploads>;
