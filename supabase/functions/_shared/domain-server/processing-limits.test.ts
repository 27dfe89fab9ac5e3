import { describe, expect, it } from 'vitest';
import {
  episodeLengthProblem,
  logoSizeProblem,
  timeLimitReason,
  videoLimitProblem,
  type ProcessingLimits,
} from './processing-limits.ts';

const starter: ProcessingLimits = {
  maxVideoPixels: 3840 * 2160,
  maxFrameRate: 60,
  maxEpisodeSeconds: 7200,
  timeLimitSeconds: 14400,
};
const video = (width: number, height: number, fps = 30, durationSeconds = 60) => ({
  durationSeconds,
  video: { width, height, fps },
});

describe('processing limits', () => {
  it('takes 4K in either orientation at up to 60 fps, and refuses more pixels or frames with the reason', () => {
    expect(videoLimitProblem('a.mp4', video(3840, 2160, 60), starter, null)).toBeNull();
    expect(videoLimitProblem('a.mp4', video(2160, 3840, 59.94), starter, null)).toBeNull();
    expect(videoLimitProblem('a.mp4', video(4096, 4096), starter, null)).toBe(
      'a.mp4 is 4096x4096: your plan accepts videos of up to 3840x2160 (or the same number of pixels).',
    );
    expect(videoLimitProblem('a.mp4', video(1280, 720, 120), starter, null)).toBe(
      'a.mp4 has 120 frames per second: your plan accepts up to 60.',
    );
  });

  it("checks a brand video's own length, the episode's total against the plan, and the logo's size", () => {
    expect(videoLimitProblem('Your video intro', video(1280, 720, 30, 121), starter, 120)).toBe(
      'Your video intro lasts 0:02:01: it may last at most 0:02:00.',
    );
    expect(episodeLengthProblem(7200, starter)).toBeNull();
    expect(episodeLengthProblem(7384, starter)).toBe(
      'The episode lasts 2:03:04: your plan accepts episodes of up to 2:00:00.',
    );
    expect(logoSizeProblem({ width: 4096, height: 4096 })).toBeNull();
    expect(logoSizeProblem({ width: 8192, height: 512 })).toBe(
      'Your logo is 8192x512: a logo may be at most 4096x4096.',
    );
  });

  it('says how long an attempt may run, in seconds or minutes', () => {
    expect(timeLimitReason({ ...starter, timeLimitSeconds: 2 })).toMatch(
      /^Processing was stopped after 2 seconds, the longest/,
    );
    expect(timeLimitReason(starter)).toMatch(/^Processing was stopped after 240 minutes, the longest/);
  });
});
