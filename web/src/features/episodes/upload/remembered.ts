// What the upload dialog remembers across a reload, per user, in local storage: the finished
// files (still to be submitted) and the unfinished uploads (continued from the held file, or
// from the same file chosen again).
export interface Remembered {
  uploaded: Array<{ name: string; size: number; path: string; durationSeconds?: number | null }>;
  /** `key` names the upload's file in held-files; entries saved before it existed have none. */
  interrupted: Array<{ key?: string; name: string; size: number }>;
}

const storageKey = (userId: string) => `castloop.episodeUploads.${userId}`;

export function readRemembered(userId: string): Remembered {
  try {
    const value = JSON.parse(localStorage.getItem(storageKey(userId)) ?? 'null') as Remembered | null;
    return { uploaded: value?.uploaded ?? [], interrupted: value?.interrupted ?? [] };
  } catch {
    return { uploaded: [], interrupted: [] };
  }
}

export function writeRemembered(userId: string, remembered: Remembered): void {
  localStorage.setItem(storageKey(userId), JSON.stringify(remembered));
}

/** Whether a reload left unfinished uploads to continue. */
export const hasInterruptedUploads = (userId: string) => readRemembered(userId).interrupted.length > 0;

/** What goes on with uploads while the dialog is closed: names resuming by themselves, names waiting for their file. */
export interface BackgroundUploads {
  resuming: string[];
  waiting: string[];
}

/** Before the dialog says more: every unfinished upload a reload left waits. */
export const backgroundUploadsAfterReload = (userId: string): BackgroundUploads => ({
  resuming: [],
  waiting: readRemembered(userId).interrupted.map((entry) => entry.name),
});
