// Restarts a part of the stack when its source files change, as `deno --watch` did, but from
// outside: the part itself runs plainly, so when it dies it exits and its supervisor sees it
// (under `--watch` a crashed host stayed up, serving nothing, until the next change).
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

const sourceFile = /\.(ts|tsx|js|mjs|json|jsonc)$/;

/** Calls `onChange` once a burst of changes to source files under `dirs` settles; returns a stop. */
export function watchSources(dirs: string[], onChange: (file: string) => void, settleMs = 200): () => void {
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = dirs.map((dir) =>
    watch(dir, { recursive: true }, (_event, file) => {
      if (!file || !sourceFile.test(file)) return;
      clearTimeout(timer);
      timer = setTimeout(() => onChange(path.join(dir, file)), settleMs);
    }).on('error', () => {
      // A watched folder removed while running: nothing left there to reload.
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
