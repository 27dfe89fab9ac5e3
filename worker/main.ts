// Entry point of the processing worker process: `tsx worker/main.ts` (local/stack.ts starts one;
// production runs it in a container next to the database, docs/deploy.md).
import { loadWorkerConfig } from './config.ts';
import { startWorker } from './runtime/worker.ts';

const log = (line: string) => console.log(`[worker ${process.pid}] ${line}`);

const worker = await startWorker(loadWorkerConfig(), log);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal}: finishing the current job, then stopping`);
    void worker.stop().then(() => process.exit(0));
  });
}
