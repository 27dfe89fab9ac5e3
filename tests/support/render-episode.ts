// The whole episode rendered on one machine, as the pieces make it (worker/pipeline: the
// submission job decides copy or not, the pieces render, the join joins): test support for the
// render tests, which check the picture, the sound and the seams without a queue.
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  copyStart,
  joinEpisode,
  planEpisode,
  renderAudioTrack,
  renderCopiedEpisode,
  renderVideoPiece,
  type EpisodeRender,
} from '../../worker/media/render.ts';

/** How the episode was made: its picture copied from `start` (a keyframe), or re-encoded. */
export type EpisodeVideo = { copied: true; start: number } | { copied: false };

/**
 * The full episode on one worker: trimmed, intro and outro joined, logo overlaid, loudness
 * normalised; the picture copied when nothing changes it, else made as the pieces are (in one
 * segment unless `segmentSeconds` says otherwise).
 */
export async function renderEpisode(job: EpisodeRender & { segmentSeconds?: number }): Promise<EpisodeVideo> {
  const copyFrom = await copyStart(job);
  if (copyFrom !== null) {
    await renderCopiedEpisode({ ...job, copyFrom });
    return { copied: true, start: copyFrom };
  }
  const layout = planEpisode({
    main: job.main.info,
    start: job.start,
    end: job.end,
    introSeconds: job.intro?.info.durationSeconds,
    outroSeconds: job.outro?.info.durationSeconds,
    segmentSeconds: job.segmentSeconds ?? Infinity,
  });
  const dir = await mkdtemp(path.join(path.dirname(job.output), 'pieces-'));
  try {
    const files = { intro: job.intro?.file, main: job.main.file, outro: job.outro?.file };
    const videoFiles: string[] = [];
    for (const [i, piece] of layout.video.entries()) {
      const output = path.join(dir, `video-${i}.mp4`);
      await renderVideoPiece({ piece, layout, file: files[piece.part] as string, logo: job.logo, output, settings: job.settings, signal: job.signal });
      videoFiles.push(output);
    }
    const audioFile = path.join(dir, 'audio.m4a');
    await renderAudioTrack({ layout, main: job.main, intro: job.intro, outro: job.outro, loudness: job.loudness, output: audioFile, signal: job.signal });
    await joinEpisode({ videoFiles, audioFile, dir, output: job.output, signal: job.signal });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { copied: false };
}
