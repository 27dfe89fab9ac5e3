// The worker's overhead on a 1080p30 episode: one job on one worker (submission to delivered)
// against the same stages run with this machine's tools alone (the bare side), in interleaved
// repeats (worker, bare, worker, bare, ...) so both meet the same load; each side's median and
// spread, and the ratio pair by pair, are printed. The bare side does what the worker must:
//   - a copy of the upload (the worker reads it from Storage),
//   - one decode for analysis (loudness measurement, loudness per window, silences: analysis.ts),
//   - one transcription of the same sound with the same engine (16 kHz mono, then pocketsphinx
//     with the worker's model and pruning, in as many pieces side by side as the worker uses),
//   - one face-detection pass over the same frames (each clip's moment at 2 fps, 480 px wide,
//     grey, through worker/media/faces.py),
//   - the same encodes (the episode's picture copied and its sound normalised; each clip's moment
//     cropped to 1080x1920 at the worker's preset and CRF, sound normalised; faststart MP4s),
//   - a copy of each file the worker sends to Drive.
// What the worker does beyond that: the pieces through Storage, captions and the clip's style
// filters, the text files, the queue and the database. Starter tier (3 clips), no intro/outro or
// logo, production encoding. BENCH_INPUT_SECONDS (default 60), BENCH_REPEATS (default 3).
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 28100) with a data directory of its own.
//   npx tsx bench/processing-1080p.ts
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../local/config.ts';
import { median, runAlone, spreadOf, type Row } from './lib/rows.ts';
import { camera1080p, driveSubscriber, episodeUploader, processEpisodes } from './lib/processing-fixtures.ts';
import { processingBenchStack } from './lib/stack.ts';

const inputSeconds = Number(process.env.BENCH_INPUT_SECONDS ?? 60);
const repeats = Math.max(1, Number(process.env.BENCH_REPEATS ?? 3));
const FPS = 30;
const parallel = os.availableParallelism();
const encodeEnv = {
  WORKER_X264_CRF: '21',
  WORKER_CLIP_HEIGHT: '1920',
  // One worker with the machine to itself, as in production: a transcript piece per core (the test stack's worker uses 1).
  POCKETSPHINX_PARALLEL: String(parallel),
  ...(process.env.BENCH_PRESET ? { WORKER_X264_PRESET: process.env.BENCH_PRESET } : {}),
};
const run = promisify(execFile);

interface Output {
  kind: 'episode' | 'clip';
  name: string;
  durationSeconds: number;
  startSeconds?: number;
}

export async function bench(): Promise<Row[]> {
  const { config, stack, work, ffmpeg } = await processingBenchStack(28100, 'processing-1080p');
  const { startWorkerProcess } = await import('../local/worker.ts');
  const { X264_PRESETS, loadWorkerConfig } = await import('../worker/config.ts');
  const { currentMediaTools } = await import('../worker/media/ffmpeg.ts');
  const { SAMPLE_FPS } = await import('../worker/media/speaker-framing.ts');
  const { segmentCount } = await import('../worker/transcript/speech-segments.ts');
  const { makeVideo } = await import('../tests/support/media.ts');
  const tools = currentMediaTools();
  const { pocketsphinx } = loadWorkerConfig({ WORKER_DATABASE_URL: 'postgres://x/y', SUPABASE_URL: 'http://x', SUPABASE_SERVICE_ROLE_KEY: 'x', TOKEN_ENCRYPTION_KEYS: 'x', ...process.env }).transcription;
  const crf = Number(encodeEnv.WORKER_X264_CRF);
  const clipPreset = process.env.BENCH_PRESET ?? X264_PRESETS.clip;

  try {
    // A camera-like source: moving picture, speech-like sound, a keyframe every 2 s.
    const input = path.join(work, 'episode-1080p.mp4');
    await camera1080p(input, inputSeconds, FPS);
    const warmUp = makeVideo(path.join(work, 'warm-up.mp4'), { size: '320x180', fps: 10, seconds: 10 });

    const user = await driveSubscriber();
    const upload = episodeUploader(user.id);
    const pieceLog: string[] = [];
    const worker = await startWorkerProcess(config, (line) => {
      if (/processed \S+/.test(line)) pieceLog.push(line.replace(/^.*?(processed)/, '$1'));
    }, encodeEnv);

    /** The worker's side: one episode submitted, timed to delivered (the upload is in Storage already). */
    const workerRun = async (round: number): Promise<{ seconds: number; outputs: Output[] }> => {
      const objectPath = await upload(input, `episode-1080p-${round}.mp4`);
      pieceLog.length = 0;
      const { seconds, outputs, stages } = await processEpisodes(user.id, objectPath);
      console.log(`worker, round ${round}: ${seconds.toFixed(1)} s (${pieceLog.join('; ')}); stages from the submission: ${stages.map((s) => `${s.stage} ${s.at.toFixed(1)}`).join(', ')}`);
      return { seconds, outputs: outputs[0] as Output[] };
    };

    const norm = 'loudnorm=I=-16:TP=-1.5:LRA=11,aresample=48000';
    const audio = ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'];
    const timedStep = (steps: Record<string, number>, name: string, began: number) => (steps[name] = (performance.now() - began) / 1000);

    /** The bare side: the same stages with this machine's tools alone, for the clips the worker chose. */
    const bareRun = async (round: number, outputs: Output[]): Promise<{ seconds: number; steps: Record<string, number> }> => {
      const dir = path.join(work, `bare-${round}`);
      mkdirSync(path.join(dir, 'drive'), { recursive: true });
      const clips = outputs.filter((o) => o.kind === 'clip');
      const steps: Record<string, number> = {};
      const began = performance.now();
      let at = began;
      const source = path.join(dir, 'upload.mp4');
      copyFileSync(input, source);
      // One decode for analysis: the loudness measurement, each half second's loudness, the silences.
      ffmpeg([
        '-i', source, '-vn', '-filter_complex',
        '[0:a]asplit=2[p][r];[r]loudnorm=I=-16:TP=-1.5:LRA=11:print_format=json[m];[p]aresample=16000,pan=mono|c0=c0,asetnsamples=n=8000,astats=metadata=1:reset=1,ametadata=mode=print:key=lavfi.astats.Overall.RMS_level,silencedetect=noise=-35dB:d=0.3[a]',
        '-map', '[a]', '-f', 'null', '-', '-map', '[m]', '-f', 'null', '-',
      ]);
      timedStep(steps, 'analysis', at);
      at = performance.now();
      // One transcription: the sound at 16 kHz mono, recognised in as many pieces side by side as the worker uses.
      const wav = path.join(dir, 'speech-16k.wav');
      ffmpeg(['-i', source, '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wav]);
      const parts = segmentCount(inputSeconds, parallel);
      await Promise.all(
        Array.from({ length: parts }, async (_, i) => {
          const piece = path.join(dir, `speech-16k-${i}.wav`);
          await run(tools.ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-ss', String((i * inputSeconds) / parts), '-t', String(inputSeconds / parts), '-i', wav, '-c', 'copy', piece]);
          await run(pocketsphinx.binary, [
            '-infile', piece, '-time', 'yes', '-logfn', '/dev/null',
            '-hmm', path.join(pocketsphinx.modelDir, 'en-us'), '-lm', path.join(pocketsphinx.modelDir, 'en-us.lm.bin'), '-dict', path.join(pocketsphinx.modelDir, 'cmudict-en-us.dict'),
            '-maxhmmpf', '5000',
          ], { maxBuffer: 64 * 1024 * 1024 });
        }),
      );
      timedStep(steps, 'transcription', at);
      at = performance.now();
      // One face-detection pass over the same frames: each clip's moment at 2 fps, 480x270 grey.
      const frames = clips.map((clip, i) => {
        const file = path.join(dir, `clip-${i}.gray`);
        ffmpeg(['-ss', String(clip.startSeconds ?? 0), '-t', String(clip.durationSeconds), '-i', source, '-an', '-vf', `fps=${SAMPLE_FPS},scale=480:270,format=gray`, '-f', 'rawvideo', `file:${file}`]);
        return file;
      });
      const answer = execFileSync(tools.python, [path.join(repoRoot, 'worker', 'media', 'faces.py'), tools.faceCascade], { input: `${JSON.stringify({ width: 480, height: 270, files: frames })}\n` });
      if (!String(answer).includes('"clips"')) throw new Error(`faces.py answered: ${String(answer).slice(0, 200)}`);
      timedStep(steps, 'faces', at);
      at = performance.now();
      // The same encodes: the episode's picture copied and its sound normalised; each clip's moment cropped to 9:16.
      const files = [path.join(dir, 'episode.mp4'), ...clips.map((_, i) => path.join(dir, `clip-${i + 1}.mp4`))];
      ffmpeg(['-i', source, '-map', '0:v', '-map', '0:a', '-c:v', 'copy', '-af', norm, ...audio, '-movflags', '+faststart', files[0]]);
      timedStep(steps, 'episode', at);
      at = performance.now();
      clips.forEach((clip, i) =>
        ffmpeg([
          '-ss', String(clip.startSeconds ?? 0), '-t', String(clip.durationSeconds), '-i', source,
          '-filter_complex', `[0:v]scale=1080:1920:force_original_aspect_ratio=increase,crop=1080:1920,format=yuv420p[v];[0:a]${norm}[a]`,
          '-map', '[v]', '-map', '[a]', '-c:v', 'libx264', '-preset', clipPreset, '-crf', String(crf), ...audio, '-movflags', '+faststart', files[i + 1],
        ]),
      );
      timedStep(steps, 'clips', at);
      at = performance.now();
      // A copy of each file the worker sends to Drive.
      for (const file of files) copyFileSync(file, path.join(dir, 'drive', path.basename(file)));
      timedStep(steps, 'copies', at);
      return { seconds: (performance.now() - began) / 1000, steps };
    };

    await processEpisodes(user.id, await upload(warmUp, 'warm-up.mp4')); // pg-boss schema, caches
    const workerSeconds: number[] = [];
    const bareSeconds: number[] = [];
    const ratios: number[] = [];
    let outputs: Output[] = [];
    let steps: Record<string, number> = {};
    try {
      for (let round = 1; round <= repeats; round++) {
        const job = await workerRun(round);
        outputs = job.outputs;
        const bare = await bareRun(round, outputs);
        steps = bare.steps;
        console.log(`bare, round ${round}: ${bare.seconds.toFixed(1)} s (${Object.entries(bare.steps).map(([name, s]) => `${name} ${s.toFixed(1)}`).join(', ')})`);
        workerSeconds.push(job.seconds);
        bareSeconds.push(bare.seconds);
        ratios.push(job.seconds / bare.seconds);
      }
    } finally {
      await worker.stop();
    }

    const clips = outputs.filter((o) => o.kind === 'clip');
    const minutes = inputSeconds / 60;
    const perMinute = (values: number[]) => values.map((v) => v / minutes);
    const detail = `${inputSeconds} s of 1920x1080 ${FPS} fps, ${clips.length} clips 1080x1920 (preset ${clipPreset}, CRF ${crf}), episode picture copied, transcript by pocketsphinx in ${segmentCount(inputSeconds, parallel)} piece(s)`;
    console.log(detail);
    return [
      { bench: 'processing-1080p', figure: 'worker: processing time per minute of 1080p30 input (one job, one worker)', value: median(perMinute(workerSeconds)), unit: 's/min', detail: `${spreadOf(perMinute(workerSeconds))}; ${detail}` },
      {
        bench: 'processing-1080p',
        figure: 'bare: the same stages with the machine tools alone, per minute of input',
        value: median(perMinute(bareSeconds)),
        unit: 's/min',
        detail: `${spreadOf(perMinute(bareSeconds))}; last round's steps (s): ${Object.entries(steps).map(([name, s]) => `${name} ${s.toFixed(1)}`).join(', ')}`,
      },
      {
        bench: 'processing-1080p',
        figure: 'worker / bare (fair 1080p ratio)',
        value: median(ratios),
        unit: 'x',
        budget: { limit: 1.3, kind: 'max' },
        detail: `pair by pair, interleaved in one run: ${spreadOf(ratios, 2)}`,
      },
    ];
  } finally {
    await stack.stop();
  }
}

await runAlone(import.meta.url, bench);
