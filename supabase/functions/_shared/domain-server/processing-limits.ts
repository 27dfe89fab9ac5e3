// What the processing worker accepts, and the reasons a subscriber reads when it refuses. The
// per-plan caps are columns of public.plans (read through private.processing_limits()); the caps
// that are the same for everyone are here.

/** One plan's caps (public.plans). */
export interface ProcessingLimits {
  /** Largest width x height of a video. */
  maxVideoPixels: number;
  maxFrameRate: number;
  /** Longest episode, every uploaded part together. */
  maxEpisodeSeconds: number;
  /** One attempt is stopped after this long. */
  timeLimitSeconds: number;
}

/** Intros and outros are short stings; a longer one is refused. */
export const BRAND_VIDEO_MAX_SECONDS = 120;
/** The logo is drawn at a sixth of the picture's short side: a larger one only costs decoding. */
export const LOGO_MAX_SIDE = 4096;

/** 7384 -> '2:03:04'. */
function clock(seconds: number): string {
  const s = Math.round(seconds);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

/** A 16:9 picture of at most `pixels`, in even sizes: 8294400 -> '3840x2160'. */
function widescreen(pixels: number): string {
  const width = Math.floor(Math.sqrt((pixels * 16) / 9) / 2) * 2;
  const height = Math.floor((width * 9) / 16 / 2) * 2;
  return `${width}x${height}`;
}

interface VideoFacts {
  durationSeconds: number;
  video: { width: number; height: number; fps: number } | null;
}

/**
 * Why a video (`label`: 'episode.mp4', 'Your video intro') is refused, or null. `maxSeconds` is
 * its own length cap (brand videos), or null when the episode's total is checked apart.
 */
export function videoLimitProblem(
  label: string,
  facts: VideoFacts,
  limits: ProcessingLimits,
  maxSeconds: number | null,
): string | null {
  const video = facts.video;
  if (video && video.width * video.height > limits.maxVideoPixels) {
    return `${label} is ${video.width}x${video.height}: your plan accepts videos of up to ${widescreen(limits.maxVideoPixels)} (or the same number of pixels).`;
  }
  if (video && video.fps > limits.maxFrameRate) {
    return `${label} has ${video.fps} frames per second: your plan accepts up to ${limits.maxFrameRate}.`;
  }
  if (maxSeconds !== null && facts.durationSeconds > maxSeconds) {
    return `${label} lasts ${clock(facts.durationSeconds)}: it may last at most ${clock(maxSeconds)}.`;
  }
  return null;
}

/** Why the episode (all parts together) is too long for the plan, or null. */
export function episodeLengthProblem(totalSeconds: number, limits: ProcessingLimits): string | null {
  return totalSeconds > limits.maxEpisodeSeconds
    ? `The episode lasts ${clock(totalSeconds)}: your plan accepts episodes of up to ${clock(limits.maxEpisodeSeconds)}.`
    : null;
}

export function logoSizeProblem(size: { width: number; height: number }): string | null {
  return size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE
    ? `Your logo is ${size.width}x${size.height}: a logo may be at most ${LOGO_MAX_SIDE}x${LOGO_MAX_SIDE}.`
    : null;
}

/** The reason recorded when an attempt ran out of time. */
export function timeLimitReason(limits: ProcessingLimits): string {
  const t = limits.timeLimitSeconds;
  const span = t < 120 ? `${t} seconds` : `${Math.round(t / 60)} minutes`;
  return `Processing was stopped after ${span}, the longest your plan allows for one episode. Please try a shorter or smaller video, or contact support.`;
}

/**
 * The private bucket the worker keeps the pieces of a submission's work in until the join (server
 * only: no policy lets a subscriber in; supabase/migrations/20261126190000_processing_pieces.sql).
 */
export const PROCESSING_PIECES_BUCKET = 'processing-pieces';
