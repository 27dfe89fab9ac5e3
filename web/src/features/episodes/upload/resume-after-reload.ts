// Continuing uploads across a reload: the held files kept alive while uploading, and the unfinished uploads restarted.
import { useEffect, useRef } from 'react';
import { heldFiles, HOLD_PING_MS, pingHeldFiles } from './held-files';
import { readRemembered } from './remembered';
import type { UploadItem } from './upload-queue';

/** While uploads run, keep the worker holding their files alive. */
export function useHeldFilesAlive(uploading: boolean): void {
  useEffect(() => {
    if (!uploading) return;
    const timer = setInterval(() => void pingHeldFiles(), HOLD_PING_MS);
    return () => clearInterval(timer);
  }, [uploading]);
}

/** After a reload: continue the unfinished uploads whose files the worker still holds. */
export function useResumeAfterReload(userId: string, heldPrefix: string, begin: (accepted: Array<{ item: UploadItem; file: File }>) => void): void {
  const restored = useRef(false);
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
          const item: UploadItem = { id: entry.key.slice(heldPrefix.length), name: file.name, size: file.size, status: 'uploading', bytesUploaded: 0, path: null, error: null, resumed: true };
          return [{ item, file }];
        }),
      );
    });
  }, [begin, heldPrefix, userId]);
}
