// A service worker that holds the File references of unfinished episode uploads across a page
// reload, so the new page continues them without asking for the files again (as Uppy's
// golden-retriever does). A File chosen in an <input> is a reference to the file on disk, so
// holding it costs no memory. The references live only as long as this worker: the page pings
// it while uploads run (Chromium stops a worker after 30 s without events), and a closed
// browser loses them (the dialog then asks for the same file again).
export type HeldFilesRequest =
  | { type: 'hold'; key: string; file: File }
  | { type: 'release'; key: string }
  | { type: 'list'; prefix: string }
  | { type: 'ping' };

export type HeldFilesReply = { type: 'ok' } | { type: 'files'; files: Array<{ key: string; file: File }> };

// The DOM and WebWorker type libraries cannot share one program: the few worker APIs used here.
interface WorkerScope {
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: (event: Event & { waitUntil(promise: Promise<unknown>): void }) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HeldFilesRequest>) => void): void;
}
// This module runs only as the worker's script, where `self` is the worker's global scope.
declare const self: WorkerScope;
const worker = self;
const held = new Map<string, File>();

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));

worker.addEventListener('message', (event) => {
  const request = event.data;
  const reply = (message: HeldFilesReply) => event.ports[0]?.postMessage(message);
  switch (request?.type) {
    case 'hold':
      held.set(request.key, request.file);
      return reply({ type: 'ok' });
    case 'release':
      held.delete(request.key);
      return reply({ type: 'ok' });
    case 'list':
      return reply({ type: 'files', files: [...held].filter(([key]) => key.startsWith(request.prefix)).map(([key, file]) => ({ key, file })) });
    case 'ping':
      return reply({ type: 'ok' });
  }
});
