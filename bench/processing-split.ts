// One long 1080p30 episode (logo on, so its picture is re-encoded and split) processed by 1, 2 and
// 4 worker processes, each in its own cgroup with the same CPU quota, so they model separate
// machines of equal size (the worker pool shares only Postgres and Storage); the speed-up against
// one worker, the CPU the split pipeline spends against the unsplit one (one segment), and the
// projected wall time of a 60-minute episode on 4 machines of 2 cores, its model and inputs printed.
// Machine model: cgroup v1 `cpu.cfs_quota_us` (v2 `cpu.max` where mounted) of BENCH_SPLIT_CORES
// (default 0.5: four such machines fit on this 2-core machine) per worker; CPU time from cpuacct.
// By default the issue's episode, 10 minutes, in segments of 60 s (the worker's default): about
// 35 minutes on a 2-core machine (four pools, one after another); shorter for a trial:
//   BENCH_SPLIT_SECONDS=60 BENCH_SEGMENT_SECONDS=15 npx tsx bench/processing-split.ts
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 28200) with a data directory of its own.
import path from 'node:path';
import { runAlone, type Row } from './lib/rows.ts';
import { brandLogo, brandedInputs, driveSubscriber, episodeUploader, processEpisodes } from './lib/processing-fixtures.ts';
import { machine, type Machine } from './lib/machines.ts';
import { processingBenchStack } from './lib/stack.ts';

const inputSeconds = Number(process.env.BENCH_SPLIT_SECONDS ?? 600);
const segmentSeconds = Number(process.env.BENCH_SEGMENT_SECONDS ?? 60);
const machineCores = Number(process.env.BENCH_SPLIT_CORES ?? 0.5);
const FPS = 30;
const encodeEnv = { WORKER_X264_CRF: '21', WORKER_CLIP_HEIGHT: '1920' };

interface JobTimes {
  plan: number;
  pieces: { what: string; seconds: number }[];
  join: number;
}

export async function bench(): Promise<Row[]> {
  const { config, stack, work } = await processingBenchStack(28200, 'processing-split');
  const { startWorkerProcess } = await import('../local/worker.ts');
  const machines: Machine[] = [];
  try {
    const { input, logo, warmUp } = await brandedInputs(work, inputSeconds, FPS);

    // A podcast language the offline engine does not transcribe: the projection assumes a
    // transcription service (below), so pocketsphinx's time is kept out of the measurement.
    const user = await driveSubscriber();
    await brandLogo(user.id, logo, { podcast_language: 'de' });
    const upload = episodeUploader(user.id);

    const run = async (objectPath: string) => (await processEpisodes(user.id, objectPath, { addLogo: true })).seconds;

    /** `workers` workers, each its own machine; the episode's wall time, CPU seconds and job times. */
    let round = 0;
    const pool = async (workers: number, segment: number) => {
      round += 1;
      const times: JobTimes = { plan: 0, pieces: [], join: 0 };
      const onLine = (line: string) => {
        const done = /processed (\S+)( \((join|piece \d+)\))? in ([\d.]+) s/.exec(line);
        if (!done) return;
        const seconds = Number(done[4]);
        if (!done[3]) times.plan = seconds;
        else if (done[3] === 'join') times.join = seconds;
        else times.pieces.push({ what: done[3], seconds });
      };
      const group = Array.from({ length: workers }, (_, i) => machine(`castloop-bench-split-${process.pid}-${round}-${i}`, machineCores));
      machines.push(...group);
      const started = await Promise.all(
        group.map(async (m, i) => {
          const worker = await startWorkerProcess(config, onLine, {
            ...encodeEnv,
            WORKER_SEGMENT_SECONDS: String(segment),
            // Separate machines: no disk in common.
            WORKER_TEMP_DIR: path.join(work, `machine-${round}-${i}`),
          });
          if (worker.child.pid) m.join(worker.child.pid);
          return worker;
        }),
      );
      await run(await upload(warmUp, `warm-up-${round}.mp4`));
      Object.assign(times, { plan: 0, pieces: [], join: 0 });
      const cpuBefore = group.reduce((sum, m) => sum + m.cpuSeconds(), 0);
      const wall = await run(await upload(input, `episode-${round}.mp4`));
      const cpu = group.reduce((sum, m) => sum + m.cpuSeconds(), 0) - cpuBefore;
      await Promise.all(started.map((w) => w.stop()));
      console.log(`${workers} worker(s), segments of ${segment} s: ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} CPU s; plan ${times.plan} s, join ${times.join} s, pieces ${times.pieces.map((p) => `${p.what} ${p.seconds}`).join(', ')}`);
      return { wall, cpu, times: { ...times, pieces: [...times.pieces] } };
    };

    const one = await pool(1, segmentSeconds);
    const two = await pool(2, segmentSeconds);
    const four = await pool(4, segmentSeconds);
    const unsplit = await pool(1, 1_000_000);

    // The projection: each stage's time on one machine of this bench, scaled to 60 minutes of input
    // (linear in length) and to a machine of 2 cores (linear in cores: optimistic for x264 at 1080p,
    // which scales well to 2 threads), the pieces shared by 4 machines, plus the longest piece.
    const scale = 3600 / inputSeconds;
    const cores = 2 / machineCores;
    // The plan's pieces: the video segments, the sound, then the clips (worker/pieces.ts).
    const videoPieces = Math.ceil(inputSeconds / segmentSeconds);
    const isClip = (p: { what: string }) => Number(p.what.replace('piece ', '')) > videoPieces;
    const clipCount = one.times.pieces.filter(isClip).length;
    const pieceSeconds = one.times.pieces.map((p) => p.seconds);
    const clipSeconds = one.times.pieces.filter(isClip).map((p) => p.seconds);
    const linear = one.times.pieces.filter((p) => !isClip(p)).reduce((a, p) => a + p.seconds, 0);
    const projectedPieces = (linear * scale + clipSeconds.reduce((a, b) => a + b, 0)) / cores / 4;
    const longestPiece = Math.max(...pieceSeconds) / cores;
    const projected = (one.times.plan * scale + one.times.join * scale) / cores + projectedPieces + longestPiece;
    const model =
      `60 min = ${scale.toFixed(0)}x the input; a 2-core machine = ${cores.toFixed(0)}x a bench worker; ` +
      `plan ${one.times.plan.toFixed(1)} s and join ${one.times.join.toFixed(1)} s (1 worker) x ${scale.toFixed(0)} / ${cores.toFixed(0)}; ` +
      `pieces: ${linear.toFixed(1)} s of segments and sound x ${scale.toFixed(0)} + ${clipCount} clips ${clipSeconds.reduce((a, b) => a + b, 0).toFixed(1)} s, / ${cores.toFixed(0)} / 4 machines, + the longest piece ${longestPiece.toFixed(1)} s; ` +
      'transcription by a service (TRANSCRIPTION_ENGINE=openai) in the plan, which the picture\'s segments (queued first) run beside: the model counts the whole plan in series';
    console.log(`projection: ${(projected / 60).toFixed(1)} min (${model})`);
    const detail = `${inputSeconds} s of 1920x1080 ${FPS} fps with a logo, segments of ${segmentSeconds} s, 3 clips; each worker a cgroup of ${machineCores} core`;
    return [
      { bench: 'processing-split', figure: 'one episode, 1 worker machine', value: one.wall, unit: 's', detail },
      { bench: 'processing-split', figure: 'speed-up with 2 worker machines (goal >= 0.8 x 2)', value: one.wall / two.wall, unit: 'x', budget: { limit: 1.6, kind: 'min' }, detail: `${two.wall.toFixed(1)} s against ${one.wall.toFixed(1)} s` },
      { bench: 'processing-split', figure: 'speed-up with 4 worker machines (goal >= 0.8 x 4)', value: one.wall / four.wall, unit: 'x', budget: { limit: 3.2, kind: 'min' }, detail: `${four.wall.toFixed(1)} s against ${one.wall.toFixed(1)} s` },
      { bench: 'processing-split', figure: 'projected wall time of a 60-minute episode on 4 machines of 2 cores', value: projected / 60, unit: 'min', budget: { limit: 15, kind: 'max' }, detail: model },
      { bench: 'processing-split', figure: 'CPU of the split pipeline / the unsplit one (goal <= 1.10)', value: one.cpu / unsplit.cpu, unit: 'x', budget: { limit: 1.1, kind: 'max' }, detail: `${one.cpu.toFixed(1)} CPU s split, ${unsplit.cpu.toFixed(1)} CPU s in one segment (1 worker each)` },
    ];
  } finally {
    await stack.stop();
    for (const m of machines) m.remove();
  }
}

await runAlone(import.meta.url, bench);
