// Built-in processing speed: seconds of processing per minute of input, and throughput with one
// and with two worker processes sharing the queue. Input: a generated episode (test pattern and
// speech-like audio), starter tier (3 clips), intro/outro off, encoded as in production
// (the worker's x264 presets: worker/config.ts X264_PRESETS) unless BENCH_PRESET says otherwise.
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 28050) with a data directory of its own.
//   npx tsx bench/processing.ts
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runAlone, type Row } from './lib/rows.ts';
import { driveSubscriber, processEpisodes } from './lib/processing-fixtures.ts';
import { benchStack } from './lib/stack.ts';

const inputSeconds = Number(process.env.BENCH_INPUT_SECONDS ?? 120);
const inputVideo = { size: process.env.BENCH_INPUT_SIZE ?? '640x360', fps: Number(process.env.BENCH_INPUT_FPS ?? 25) };
const encodeEnv = {
  ...(process.env.BENCH_PRESET ? { WORKER_X264_PRESET: process.env.BENCH_PRESET } : {}),
  WORKER_X264_CRF: '21',
  WORKER_CLIP_HEIGHT: process.env.BENCH_CLIP_HEIGHT ?? '640',
};

export async function bench(): Promise<Row[]> {
  const { config, startStack } = await benchStack(28050, 'processing');
  const { startWorkerProcess } = await import('../local/worker.ts');
  const { makeFixtures } = await import('../tests/support/media.ts');
  const { serviceClient } = await import('../tests/support/stack.ts');
  const { X264_PRESETS } = await import('../worker/config.ts');
  const presets = process.env.BENCH_PRESET ?? `${X264_PRESETS.episode} (episode), ${X264_PRESETS.clip} (clips)`;

  const stack = await startStack(config, { reset: true, web: 'none', worker: false });
  const work = path.join(config.dataDir, 'bench');
  mkdirSync(work, { recursive: true });

  try {
    const media = makeFixtures(work, inputSeconds, inputVideo);
    const user = await driveSubscriber();
    const objectPath = `${user.id}/uploads/bench.mp4`;
    const { error } = await serviceClient().storage.from('episodes').upload(objectPath, readFileSync(media.episode), { contentType: 'video/mp4' });
    if (error) throw new Error(error.message);

    const run = async (count: number) => (await processEpisodes(user.id, objectPath, { count })).seconds;

    const first = await startWorkerProcess(config, undefined, encodeEnv);
    await run(1); // warm-up: pg-boss schema, caches
    const oneJob = await run(1);
    const oneWorker = await run(2);
    const second = await startWorkerProcess(config, undefined, encodeEnv);
    const twoWorkers = await run(4);
    await Promise.all([first.stop(), second.stop()]);

    const minutes = inputSeconds / 60;
    console.log(`input: ${inputSeconds} s, ${inputVideo.size} ${inputVideo.fps} fps; preset ${presets}, clips ${encodeEnv.WORKER_CLIP_HEIGHT} px high; 1 episode + 3 clips per job`);
    console.log(`one job alone: ${oneJob.toFixed(1)} s = ${(oneJob / minutes).toFixed(1)} s of processing per minute of input`);
    console.log(`one worker, 2 jobs: ${oneWorker.toFixed(1)} s, ${((2 * 3600) / oneWorker).toFixed(0)} jobs/hour`);
    console.log(`two workers, 4 jobs: ${twoWorkers.toFixed(1)} s, ${((4 * 3600) / twoWorkers).toFixed(0)} jobs/hour (${((4 / twoWorkers) / (2 / oneWorker)).toFixed(2)}x one worker)`);
    return [
      { bench: 'processing', figure: 'processing time per minute of input (one job)', value: oneJob / minutes, unit: 's/min', detail: `${inputSeconds} s input, ${inputVideo.size}, preset ${presets}` },
      { bench: 'processing', figure: 'two workers / one worker, jobs per hour', value: 4 / twoWorkers / (2 / oneWorker), unit: 'x', detail: `${((2 * 3600) / oneWorker).toFixed(0)} -> ${((4 * 3600) / twoWorkers).toFixed(0)} jobs/hour` },
    ];
  } finally {
    await stack.stop();
  }
}

await runAlone(import.meta.url, bench);
