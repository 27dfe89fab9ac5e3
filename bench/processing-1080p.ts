// The worker's overhead on a 1080p30 episode: processing seconds per minute of input for one job on
// one worker (submission to delivered: download, analysis, framing, renders, Drive upload), against
// the time this machine's ffmpeg takes, in the same run, for the minimal commands that make the same
// outputs (the episode's picture copied and its sound normalised; each clip's moment decoded once
// and encoded once at the same size, preset and CRF); and the same job without the content
// engine's stages. Starter tier (3 clips), no intro/outro or logo, production encoding.
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default 28100) with its own data directory.
//   npx tsx bench/processing-1080p.ts
import { copyFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAlone, type Row } from './lib/rows.ts';
import { camera1080p, driveSubscriber, processEpisodes } from './lib/processing-fixtures.ts';
import { processingBenchStack } from './lib/stack.ts';

const inputSeconds = Number(process.env.BENCH_INPUT_SECONDS ?? 60);
const FPS = 30;
const encodeEnv = {
  WORKER_X264_CRF: '21',
  WORKER_CLIP_HEIGHT: '1920',
  // One worker with the machine to itself, as in production: a transcript piece per core (the test stack's worker uses 1).
  POCKETSPHINX_PARALLEL: String(os.availableParallelism()),
  ...(process.env.BENCH_PRESET ? { WORKER_X264_PRESET: process.env.BENCH_PRESET } : {}),
};

interface Output {
  kind: 'episode' | 'clip';
  durationSeconds: number;
  startSeconds?: number;
}

export async function bench(): Promise<Row[]> {
  const { config, stack, work, ffmpeg } = await processingBenchStack(28100, 'processing-1080p');
  const { startWorkerProcess } = await import('../local/worker.ts');
  const { X264_PRESETS } = await import('../worker/config.ts');
  const { makeVideo } = await import('../tests/support/media.ts');
  const { serviceClient, withDb } = await import('../tests/support/stack.ts');
  const timed = (args: string[]) => {
    const began = Date.now();
    ffmpeg(args);
    return (Date.now() - began) / 1000;
  };

  try {
    // A camera-like source: moving picture, speech-like sound, a keyframe every 2 s.
    const input = path.join(work, 'episode-1080p.mp4');
    await camera1080p(input, inputSeconds, FPS);
    const warmUp = makeVideo(path.join(work, 'warm-up.mp4'), { size: '320x180', fps: 10, seconds: 10 });

    const user = await driveSubscriber();
    const upload = async (file: string) => {
      const objectPath = `${user.id}/uploads/${path.basename(file)}`;
      const { error } = await serviceClient().storage.from('episodes').upload(objectPath, readFileSync(file), { contentType: 'video/mp4' });
      if (error) throw new Error(error.message);
      return objectPath;
    };

    /** Submits one episode and answers the seconds until it is delivered, and its outputs. */
    const run = async (objectPath: string): Promise<{ seconds: number; outputs: Output[] }> => {
      const { seconds, outputs } = await processEpisodes(user.id, objectPath);
      return { seconds, outputs: outputs[0] as Output[] };
    };

    const worker = await startWorkerProcess(config, undefined, encodeEnv);
    await run(await upload(warmUp)); // pg-boss schema, caches
    const job = await run(await upload(input));
    await worker.stop();

    // The same job without the stages the content engine added (issue 27): a podcast language the
    // offline engine does not transcribe (so no words, captions or content files) and no face
    // detector (so no framing pass).
    await withDb((db) => db.query(`update public.profiles set podcast_language = 'de' where id = $1`, [user.id]));
    const plainWorker = await startWorkerProcess(config, undefined, { ...encodeEnv, FACE_DETECTOR_PYTHON: path.join(work, 'no-face-detector') });
    const plainInput = path.join(work, 'episode-1080p-plain.mp4');
    copyFileSync(input, plainInput);
    const plain = await run(await upload(plainInput));
    await plainWorker.stop();

    // The minimal commands, with the worker's own encode settings.
    const encode = { crf: Number(encodeEnv.WORKER_X264_CRF), clipPreset: process.env.BENCH_PRESET ?? X264_PRESETS.clip };
    const norm = 'loudnorm=I=-16:TP=-1.5:LRA=11,aresample=48000';
    // The worker's outputs are MP4s that play while they download (faststart): so are these.
    const audio = ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'];
    const episodeSeconds = timed(['-i', input, '-map', '0:v', '-map', '0:a', '-c:v', 'copy', '-af', norm, ...audio, '-movflags', '+faststart', path.join(work, 'minimal-episode.mp4')]);
    const clips = job.outputs.filter((o) => o.kind === 'clip');
    const clipArgs = clips.flatMap((clip, i) => [
      '-ss', String(clip.startSeconds ?? 0), '-t', String(clip.durationSeconds), '-i', input,
      '-filter_complex', `[${i}:v]scale=1080:-2,pad=1080:1920:(ow-iw)/2:(oh-ih)/2,format=yuv420p[v${i}];[${i}:a]${norm}[a${i}]`,
      '-map', `[v${i}]`, '-map', `[a${i}]`, '-c:v', 'libx264', '-preset', encode.clipPreset, '-crf', String(encode.crf), ...audio, '-movflags', '+faststart', path.join(work, `minimal-clip-${i}.mp4`),
    ]);
    const clipSeconds = timed(clipArgs);
    const minimal = episodeSeconds + clipSeconds;

    const minutes = inputSeconds / 60;
    const detail = `${inputSeconds} s of 1920x1080 ${FPS} fps, ${clips.length} clips 1080x1920 (preset ${encode.clipPreset}, CRF ${encode.crf}), episode picture copied`;
    console.log(detail);
    console.log(`without the content engine's stages: ${plain.seconds.toFixed(1)} s`);
    console.log(`worker, one job: ${job.seconds.toFixed(1)} s; minimal ffmpeg: ${minimal.toFixed(1)} s (episode ${episodeSeconds.toFixed(1)} s, clips ${clipSeconds.toFixed(1)} s)`);
    return [
      { bench: 'processing-1080p', figure: 'processing time per minute of 1080p30 input (one job, one worker)', value: job.seconds / minutes, unit: 's/min', detail },
      {
        bench: 'processing-1080p',
        figure: "the same without the content engine's stages (transcript, captions, content files, framing)",
        value: plain.seconds / minutes,
        unit: 's/min',
        detail: `${plain.seconds.toFixed(1)} s against ${job.seconds.toFixed(1)} s with them`,
      },
      { bench: 'processing-1080p', figure: 'minimal ffmpeg commands for the same outputs, per minute of input', value: minimal / minutes, unit: 's/min', detail: `episode ${episodeSeconds.toFixed(1)} s + clips ${clipSeconds.toFixed(1)} s` },
      { bench: 'processing-1080p', figure: 'worker / minimal ffmpeg', value: job.seconds / minimal, unit: 'x', budget: { limit: 1.2, kind: 'max' }, detail: `${job.seconds.toFixed(1)} s / ${minimal.toFixed(1)} s, measured in the same run` },
    ];
  } finally {
    await stack.stop();
  }
}

await runAlone(import.meta.url, bench);
