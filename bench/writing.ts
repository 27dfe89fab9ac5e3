// The writing engine's cost in time (issue 42): the writing stage alone, per minute of episode,
// with the chat engine against the local sandbox (OpenAI's chat-completions shapes: the time is
// the engine's own work, its requests and checks, not a model's) and with the offline engine, on
// generated transcripts of 10, 60 and 180 minutes; and the whole pipeline per minute of a spoken
// episode (espeak-ng reading the tests' script, transcribed by pocketsphinx) with the sandbox
// writer and with the offline one. Runs its own stack on CASTLOOP_TEST_PORT_BASE (default 28300).
//   npx tsx bench/writing.ts
// Settings: WRITING_BENCH_MINUTES (the generated transcripts' lengths, default 10,60,180),
// WRITING_BENCH_SPEECH (how many times the script is read, default 3: about two minutes),
// BENCH_REPEATS (counted pipeline rounds after the warm-up, default 2).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { runAlone, type Row } from './lib/rows.ts';
import { benchStack } from './lib/stack.ts';
import { writingDetail, writingStageTimer } from './lib/writing-stage.ts';

const LENGTHS = (process.env.WRITING_BENCH_MINUTES ?? '10,60,180').split(',').map(Number);
const SPEECH_READINGS = Number(process.env.WRITING_BENCH_SPEECH ?? 3);
const ROUNDS = Number(process.env.BENCH_REPEATS ?? 2) + 1;

async function stageRows(): Promise<Row[]> {
  const timer = await writingStageTimer();
  const rows: Row[] = [];
  try {
    for (const minutes of LENGTHS) {
      for (const [name, engine] of [['sandbox writer', 'chat'], ['offline engine', 'offline']] as const) {
        const run = await timer.time(minutes, engine);
        console.log(`${name}, ${minutes} min: ${writingDetail(run)}`);
        rows.push({ bench: 'writing', figure: `writing stage per episode minute, ${name}, ${minutes} min`, value: (run.seconds * 1000) / minutes, unit: 'ms/min', detail: writingDetail(run) });
      }
    }
  } finally {
    await timer.stop();
  }
  return rows;
}

async function pipelineRows(): Promise<Row[]> {
  const { config, startStack } = await benchStack(28300, 'writing');
  const { startWorkerProcess } = await import('../local/worker.ts');
  const { serviceClient } = await import('../tests/support/stack.ts');
  const { episodeWith, spokenWav, SPEECH_SCRIPT } = await import('../tests/support/speech.ts');
  const { probe } = await import('../worker/media/ffmpeg.ts');
  const { driveSubscriber, processEpisodes } = await import('./lib/processing-fixtures.ts');
  const { readFileSync } = await import('node:fs');
  const stack = await startStack(config, { reset: true, web: 'none', worker: false });
  mkdirSync(path.join(config.dataDir, 'bench'), { recursive: true });
  try {
    // The script read SPEECH_READINGS times (three: about two minutes of speech).
    const episode = episodeWith({ wav: spokenWav(Array.from({ length: SPEECH_READINGS }, () => SPEECH_SCRIPT).join(' ')) });
    const minutes = (await probe(episode)).durationSeconds / 60;
    const user = await driveSubscriber();
    const objectPath = `${user.id}/uploads/spoken.mp4`;
    const { error } = await serviceClient().storage.from('episodes').upload(objectPath, readFileSync(episode), { contentType: 'video/mp4' });
    if (error) throw new Error(error.message);
    // The engines take turns (the machine's other work varies): each figure is the mean of the counted rounds.
    const engines = [['offline engine', { WRITING_ENGINE: 'extractive' }], ['sandbox writer', {}]] as const;
    const times = new Map<string, number[]>(engines.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, env] of engines) {
        const worker = await startWorkerProcess(config, undefined, { WORKER_CLIP_HEIGHT: '640', ...env });
        try {
          const { seconds } = await processEpisodes(user.id, objectPath);
          // The first round warms up (pg-boss's schema, caches) and is not counted.
          if (round > 0) times.get(name)?.push(seconds);
          console.log(`pipeline with the ${name}${round ? '' : ' (warm-up)'}: ${seconds.toFixed(1)} s for ${minutes.toFixed(2)} min of speech`);
        } finally {
          await worker.stop();
        }
      }
    }
    const rows: Row[] = engines.map(([name]) => {
      const runs = times.get(name) ?? [];
      const mean = runs.reduce((sum, s) => sum + s, 0) / runs.length;
      return { bench: 'writing', figure: `whole pipeline per minute of speech, ${name}`, value: mean / minutes, unit: 's/min', detail: `${runs.map((s) => s.toFixed(1)).join(' and ')} s for ${(minutes * 60).toFixed(0)} s of espeak-ng speech, 3 clips` };
    });
    return rows;
  } finally {
    await stack.stop();
  }
}

export async function bench(): Promise<Row[]> {
  return [...(await stageRows()), ...(await pipelineRows())];
}

await runAlone(import.meta.url, bench);
