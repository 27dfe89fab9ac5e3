// What the subscriber waits for (issue 45, item 3): from submission to "ready for review"
// (episode_processing 'delivered' with every post held for review: the default review window,
// migration 20261128110400) and to the first clip ready for review, measured on a shorter 1080p
// episode and projected to a 60-minute one on 4 worker machines of this machine's size (2 cores),
// the model printed with its inputs. Goals: 10 minutes, and 3 minutes to the first clip.
// The episode: BENCH_WAIT_SECONDS (default 180) of camera-like 1080p30 with speech-like sound and
// a logo (so its picture is re-encoded in segments of BENCH_SEGMENT_SECONDS, default 60: the
// longer path), Starter tier (3 clips). The transcript by the hosted engine (TRANSCRIPTION_ENGINE
// =openai) against the stack's sandbox, which really recognises the sound (pocketsphinx, outside
// the workers' machines); the projection uses a stated latency per request of the hosted service
// instead (BENCH_TRANSCRIPTION_REQUEST_SECONDS, default 60 s per 20-minute request, the requests
// sent side by side: worker/transcript/openai.ts), the analysis decoding the sound meanwhile. The
// writing stage: the chat engine against the sandbox answering each request after a stated
// latency (BENCH_WRITING_REQUEST_SECONDS, default 10 s: a hosted model's answer of about 1,000
// tokens), on a generated transcript of 60 minutes. Both latencies are assumptions: the services
// cannot be reached from here.
// Workers: BENCH_WAIT_WORKERS (default 4) processes, each a cgroup of BENCH_SPLIT_CORES (default
// 0.5) core (lib/machines.ts; needs root), so four fit on this 2-core machine.
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 28400) with a data directory of its own.
//   npx tsx bench/review-wait.ts
import path from 'node:path';
import { runAlone, type Row } from './lib/rows.ts';
import { machine, type Machine } from './lib/machines.ts';
import { brandLogo, brandedInputs, driveSubscriber, episodeUploader, processEpisodes } from './lib/processing-fixtures.ts';
import { processingBenchStack } from './lib/stack.ts';
import { writingDetail, writingStageTimer } from './lib/writing-stage.ts';

const inputSeconds = Number(process.env.BENCH_WAIT_SECONDS ?? 180);
const segmentSeconds = Number(process.env.BENCH_SEGMENT_SECONDS ?? 60);
const workers = Number(process.env.BENCH_WAIT_WORKERS ?? 4);
const machineCores = Number(process.env.BENCH_SPLIT_CORES ?? 0.5);
const requestSeconds = Number(process.env.BENCH_TRANSCRIPTION_REQUEST_SECONDS ?? 60);
const writingRequestSeconds = Number(process.env.BENCH_WRITING_REQUEST_SECONDS ?? 10);
/** The hosted engine's pieces (worker/transcript/openai.ts CHUNK_SECONDS and REQUESTS_AT_ONCE). */
const REQUEST_AUDIO_SECONDS = 20 * 60;
const REQUESTS_AT_ONCE = 4;
const FPS = 30;

interface Done {
  what: string;
  seconds: number;
  /** Seconds from the submission to the log line. */
  at: number;
}

export async function bench(): Promise<Row[]> {
  const { config, stack, work } = await processingBenchStack(28400, 'review-wait');
  const { startWorkerProcess } = await import('../local/worker.ts');
  const { SANDBOX_OPENAI_API_KEY } = await import('../local/sandbox/openai/index.ts');
  const { withDb } = await import('../tests/support/stack.ts');
  const machines: Machine[] = [];
  try {
    const { input, logo, warmUp } = await brandedInputs(work, inputSeconds, FPS);

    const user = await driveSubscriber();
    await brandLogo(user.id, logo);
    const upload = episodeUploader(user.id);

    let submittedAt = Date.now();
    const done: Done[] = [];
    // The plan's steps that wait on the outside services (worker/pipeline/submission.ts logs them).
    const steps = new Map<string, number>();
    const onLine = (line: string) => {
      const match = /processed \S+( \((join|piece \d+)\))? in ([\d.]+) s/.exec(line);
      if (match) done.push({ what: match[2] ?? 'plan', seconds: Number(match[3]), at: (Date.now() - submittedAt) / 1000 });
      const step = /: (words|writing) in ([\d.]+) s/.exec(line);
      if (step) steps.set(step[1], Number(step[2]));
    };
    const pool = await Promise.all(
      Array.from({ length: workers }, async (_, i) => {
        const m = machine(`castloop-bench-wait-${process.pid}-${i}`, machineCores);
        machines.push(m);
        const worker = await startWorkerProcess(config, onLine, {
          WORKER_X264_CRF: '21',
          WORKER_CLIP_HEIGHT: '1920',
          WORKER_SEGMENT_SECONDS: String(segmentSeconds),
          WORKER_TEMP_DIR: path.join(work, `machine-${i}`),
          TRANSCRIPTION_ENGINE: 'openai',
          OPENAI_API_KEY: SANDBOX_OPENAI_API_KEY,
          OPENAI_BASE_URL: `${config.urls.sandbox}/v1`,
        });
        if (worker.child.pid) m.join(worker.child.pid);
        return worker;
      }),
    );
    let wall: number;
    try {
      await processEpisodes(user.id, await upload(warmUp, 'warm-up.mp4'), { addLogo: true });
      done.length = 0;
      submittedAt = Date.now();
      steps.clear();
      wall = (await processEpisodes(user.id, await upload(input, 'episode.mp4'), { addLogo: true })).seconds;
    } finally {
      await Promise.all(pool.map((worker) => worker.stop()));
    }

    // Ready for review: delivered, its clips recorded, nothing released to post; each clip was in
    // Drive before the episode was (delivered by its own piece).
    const review = await withDb(async (db) => {
      const { rows } = await db.query(
        `select p.id, p.status, pr.review_window,
                (select count(*)::int from public.episode_clips c where c.episode_processing_id = p.id) as clips,
                (select count(*)::int from public.scheduled_posts s where s.episode_processing_id = p.id and s.status <> 'held') as released
           from public.episode_processing p join public.profiles pr on pr.id = p.user_id
          where p.user_id = $1 order by p.created_at desc limit 1`,
        [user.id],
      );
      return rows[0] as { id: string; status: string; review_window: string; clips: number; released: number };
    });
    const processingId = review.id;
    if (review.status !== 'delivered' || review.clips === 0 || review.released > 0) {
      throw new Error(`not ready for review: ${JSON.stringify(review)}`);
    }

    // The analysis alone (one ffmpeg decode of the sound, on one core), and the writing stage of
    // a 60-minute episode against the sandbox at the stated latency.
    const { analyseAudio } = await import('../worker/media/analysis.ts');
    const analysing = Date.now();
    await analyseAudio(input, 0, inputSeconds);
    const analysis = (Date.now() - analysing) / 1000;
    const timer = await writingStageTimer({ latencyMs: writingRequestSeconds * 1000 });
    const writing = await timer.time(60, 'chat').finally(() => timer.stop());

    const plan = done.find((d) => d.what === 'plan');
    const join = done.find((d) => d.what === 'join');
    if (!plan || !join) throw new Error(`the worker's log lacks the plan or the join: ${JSON.stringify(done)}`);
    const pieces = done.filter((d) => d.what.startsWith('piece'));
    const videoPieces = Math.ceil(inputSeconds / segmentSeconds);
    // The plan's pieces: the video segments, the sound, then the clips (worker/pipeline/plan.ts).
    const isClip = (d: Done) => Number(d.what.replace('piece ', '')) > videoPieces;
    const clips = pieces.filter(isClip);
    const firstClip = Math.min(...clips.map((d) => d.at));
    console.log(`${workers} worker(s): delivered in ${wall.toFixed(1)} s; plan ${plan.seconds} s (done at ${plan.at.toFixed(1)} s), pieces ${pieces.map((d) => `${d.what} ${d.seconds} s (done at ${d.at.toFixed(1)})`).join(', ')}, join ${join.seconds} s`);

    // The projection to 60 minutes on 4 machines of 2 cores, every step in series (pessimistic:
    // the picture's segments, queued first, really run beside the words and the writing):
    //   the plan's own work (without its words and writing steps), linear in length, / cores
    //   + the words: the hosted transcription's requests side by side at the stated latency, or
    //     the analysis beside them when it is longer (linear in length, one core)
    //   + rating the clips' moments (one round of requests at the stated latency)
    //   + the writing stage of a 60-minute episode at the stated latency (measured)
    //   + the pieces' work shared by the 4 machines (segments and sound linear in length, the clips
    //     as measured), / cores, + the longest piece
    //   + the join, linear in length, / cores.
    const wordsStep = steps.get('words');
    const writingStep = steps.get('writing');
    if (wordsStep === undefined || writingStep === undefined) throw new Error(`the worker's log lacks the plan's words or writing step: ${JSON.stringify([...steps])}`);
    const scale = 3600 / inputSeconds;
    const cores = 2 / machineCores;
    const planWork = Math.max(0, plan.seconds - wordsStep - writingStep);
    const requests = Math.ceil(3600 / REQUEST_AUDIO_SECONDS);
    const transcription = Math.ceil(requests / REQUESTS_AT_ONCE) * requestSeconds;
    const words = Math.max(transcription, analysis * scale);
    const linear = pieces.filter((d) => !isClip(d)).reduce((sum, d) => sum + d.seconds, 0);
    const clipWork = clips.reduce((sum, d) => sum + d.seconds, 0);
    const shared = (linear * scale + clipWork) / cores / 4;
    // The longest piece of the 60-minute episode: the sound over the whole (linear), a segment or a clip (as measured).
    const isSound = (d: Done) => Number(d.what.replace('piece ', '')) === videoPieces;
    const longest = Math.max(...pieces.map((d) => (isSound(d) ? d.seconds * scale : d.seconds))) / cores;
    // Rating the clips' moments: one round of requests side by side (worker/writing/chat/moments.ts) at the stated latency.
    const rating = writingRequestSeconds;
    const beforePieces = (planWork * scale) / cores + words + rating + writing.seconds;
    const projected = beforePieces + shared + longest + (join.seconds * scale) / cores;
    // The first clip: each clip's piece delivers it (to Drive and the review screen) as soon as it is
    // rendered, and clips go before every other piece (worker/pipeline/plan.ts PRIORITY), so the first
    // waits for the plan and its own piece, which the plan's worker takes as the plan ends.
    const firstClipPiece = Math.min(...clips.map((d) => d.seconds)) / cores;
    const firstClipProjected = beforePieces + firstClipPiece;
    const model =
      `60 min = ${scale.toFixed(0)}x the input; a 2-core machine = ${cores.toFixed(0)}x a bench worker; ` +
      `plan ${plan.seconds.toFixed(1)} s less its words ${wordsStep.toFixed(1)} s and writing ${writingStep.toFixed(1)} s, x ${scale.toFixed(0)} / ${cores.toFixed(0)} = ${((planWork * scale) / cores).toFixed(0)} s; ` +
      `words: ${requests} transcription requests ${REQUESTS_AT_ONCE} at a time x ${requestSeconds} s (stated) = ${transcription} s beside the analysis ${analysis.toFixed(1)} s x ${scale.toFixed(0)} = ${(analysis * scale).toFixed(0)} s: ${words.toFixed(0)} s; ` +
      `rating the clips' moments, one round of requests at ${writingRequestSeconds} s (stated); writing a 60-minute episode at ${writingRequestSeconds} s a request: ${writingDetail(writing)}; ` +
      `pieces ${linear.toFixed(1)} s of segments and sound x ${scale.toFixed(0)} + ${clips.length} clips ${clipWork.toFixed(1)} s, / ${cores.toFixed(0)} / 4 = ${shared.toFixed(0)} s, + the longest piece ${longest.toFixed(0)} s; ` +
      `join ${join.seconds.toFixed(1)} s x ${scale.toFixed(0)} / ${cores.toFixed(0)} = ${((join.seconds * scale) / cores).toFixed(0)} s; every step in series`;
    console.log(`projection: ${(projected / 60).toFixed(1)} min (${model})`);
    const measured = `${inputSeconds} s of 1920x1080 ${FPS} fps with a logo, segments of ${segmentSeconds} s, ${clips.length} clips, ${workers} workers of ${machineCores} core each, transcript by the sandbox`;
    return [
      { bench: 'review-wait', figure: 'submission -> ready for review (measured: this episode, these workers)', value: wall, unit: 's', detail: `${measured}; processing ${processingId}` },
      { bench: 'review-wait', figure: 'submission -> first clip ready for review (measured: rendered, in Drive, recorded)', value: firstClip, unit: 's', detail: `the whole episode at ${join.at.toFixed(1)} s` },
      { bench: 'review-wait', figure: 'projected: 60-minute 1080p episode -> ready for review, 4 machines of 2 cores', value: projected / 60, unit: 'min', budget: { limit: 10, kind: 'max' }, detail: model },
      {
        bench: 'review-wait',
        figure: 'projected: 60-minute episode -> first clip ready for review',
        value: firstClipProjected / 60,
        unit: 'min',
        budget: { limit: 3, kind: 'max' },
        detail: `the plan ${(beforePieces / 60).toFixed(1)} min (as above) + the first clip's piece (render, Drive, record) ${firstClipPiece.toFixed(0)} s`,
      },
    ];
  } finally {
    await stack.stop();
    for (const m of machines) m.remove();
  }
}

await runAlone(import.meta.url, bench);
