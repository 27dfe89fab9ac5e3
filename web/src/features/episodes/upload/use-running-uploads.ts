// The tus uploads running on this page: each started (continuing an earlier upload of the same
// file when there is one, else opened on the server), its progress and time left reported,
// retried or stopped; and the success toast once every file of a batch is up.
import { useCallback, useRef } from 'react';
import { notify } from '@/lib/toast';
import { episodeTexts as t } from '../texts';
import { releaseFile } from './held-files';
import { secondsLeft, type RateSample } from './time-left';
import { episodeUpload, loadTus, UploadRefused, type EpisodeUpload } from './tus-upload';
import type { UploadItem } from './upload-queue';

type UpdateItem = (id: string, change: Partial<UploadItem>) => void;

export function useRunningUploads(userId: string, heldPrefix: string, update: UpdateItem) {
  const uploads = useRef(new Map<string, EpisodeUpload>());
  const batch = useRef({ started: 0, finished: 0 });
  // Where each upload's rate is measured from (its first progress report on this page).
  const rateStarts = useRef(new Map<string, RateSample>());

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

  /** Starts uploading files as one batch for the success toast. */
  const startBatch = useCallback(
    (accepted: Array<{ item: UploadItem; file: File }>) => {
      for (const { item, file } of accepted) {
        batch.current.started += 1;
        void start(item.id, file);
      }
    },
    [start],
  );

  /** Starts a failed upload again: one the server would not open (`opened` false) is asked for again; one under way goes on. */
  const retry = useCallback(
    (id: string, opened: boolean) => {
      const running = uploads.current.get(id);
      if (!running) return;
      update(id, { status: 'uploading', error: null });
      if (opened) running.upload.start();
      else void start(id, running.file);
    },
    [start, update],
  );

  /** Lets go of an upload and its held file; one still uploading leaves its batch. Returns the upload, to cancel. */
  const detach = useCallback(
    (id: string, status: UploadItem['status'] | undefined): EpisodeUpload | undefined => {
      const running = uploads.current.get(id);
      uploads.current.delete(id);
      void releaseFile(heldPrefix + id);
      if (status === 'uploading') batch.current.started -= 1;
      return running;
    },
    [heldPrefix],
  );

  /** After a submission: the files now belong to the episode. */
  const forgetAll = useCallback(() => uploads.current.clear(), []);

  return { startBatch, retry, detach, forgetAll };
}
