// The page's side of held-files-sw.ts: hands it the File of each unfinished upload and gets
// them back after a reload. Where service workers are unavailable (an insecure origin, a
// private window that refuses them) every call quietly does nothing: the dialog then asks for
// the file again, as it would after a closed browser.
import workerUrl from './held-files-sw.ts?worker&url';
import type { HeldFilesReply, HeldFilesRequest } from './held-files-sw';

/** How often the page reminds the worker it is needed (Chromium stops it after 30 s idle). */
export const HOLD_PING_MS = 10_000;
const REPLY_TIMEOUT_MS = 5_000;

let activeWorker: Promise<ServiceWorker | null> | null = null;

function worker(): Promise<ServiceWorker | null> {
  activeWorker ??= (async () => {
    if (!('serviceWorker' in navigator)) return null;
    // Dev serves the worker as an ES module, the build as a classic script. Its scope is never
    // used: it controls no page, it only answers messages.
    const registration = await navigator.serviceWorker.register(workerUrl, { type: import.meta.env.DEV ? 'module' : 'classic' });
    const pending = registration.installing ?? registration.waiting;
    if (registration.active && !pending) return registration.active;
    await new Promise<void>((resolve) => {
      pending?.addEventListener('statechange', () => {
        if (pending.state === 'activated' || pending.state === 'redundant') resolve();
      });
    });
    return registration.active;
  })().catch(() => null);
  return activeWorker;
}

async function ask(request: HeldFilesRequest): Promise<HeldFilesReply | null> {
  const target = await worker();
  if (!target) return null;
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), REPLY_TIMEOUT_MS);
    channel.port1.onmessage = (event: MessageEvent<HeldFilesReply>) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(event.data);
    };
    target.postMessage(request, [channel.port2]);
  });
}

export const holdFile = (key: string, file: File) => ask({ type: 'hold', key, file }).then(() => undefined);
export const releaseFile = (key: string) => ask({ type: 'release', key }).then(() => undefined);
export const pingHeldFiles = () => ask({ type: 'ping' }).then(() => undefined);

/** The files still held under keys starting with `prefix`, by key. */
export async function heldFiles(prefix: string): Promise<Map<string, File>> {
  const reply = await ask({ type: 'list', prefix });
  return new Map(reply?.type === 'files' ? reply.files.map(({ key, file }) => [key, file]) : []);
}
