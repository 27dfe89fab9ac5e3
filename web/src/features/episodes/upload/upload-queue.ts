// The upload queue's state: the files in the dialog, the unfinished ones a reload left, and what survives a reload.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { readRemembered, type Remembered, writeRemembered } from './remembered';

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
  /** The video's length from its MP4 header: undefined while it is read, null when it does not say. */
  durationSeconds?: number | null;
  /** It continues an earlier upload of the same file (after a reload, or chosen again). */
  resumed?: boolean;
  /** The measured time left, in seconds, while uploading (time-left.ts). */
  secondsLeft?: number | null;
}

export function useUploadQueue(userId: string, heldPrefix: string) {
  const [items, setItems] = useState<UploadItem[]>(() =>
    readRemembered(userId).uploaded.map((file) => ({ ...file, id: crypto.randomUUID(), status: 'uploaded', bytesUploaded: file.size, error: null })),
  );
  const [interrupted, setInterrupted] = useState(() => readRemembered(userId).interrupted);

  // Remember what survives a reload: finished files, and unfinished ones to continue.
  useEffect(() => {
    const remembered: Remembered = {
      uploaded: items.flatMap((item) =>
        item.status === 'uploaded' && item.path ? [{ name: item.name, size: item.size, path: item.path, durationSeconds: item.durationSeconds }] : [],
      ),
      interrupted: [
        ...interrupted.filter((entry) => !items.some((item) => item.name === entry.name && item.size === entry.size)),
        ...items.filter((item) => item.status !== 'uploaded').map(({ id, name, size }) => ({ key: heldPrefix + id, name, size })),
      ],
    };
    writeRemembered(userId, remembered);
  }, [items, interrupted, userId, heldPrefix]);

  const update = useCallback((id: string, change: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const overall = useMemo(() => {
    const total = items.reduce((sum, item) => sum + item.size, 0);
    const sent = items.reduce((sum, item) => sum + item.bytesUploaded, 0);
    return total === 0 ? 0 : Math.floor((sent / total) * 100);
  }, [items]);

  return { items, setItems, interrupted, setInterrupted, update, overall };
}
