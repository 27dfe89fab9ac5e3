import { z } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { episodeObjectPath, episodeOptionsSchema, episodeOptionsSchemaFor, normalizeDaysBetweenClips, submitEpisodePayloadSchema, trimProblem } from './episodes';

describe('episode options', () => {
  it('accepts hh:mm:ss with hours 0-23 and an optional leading zero, or empty', () => {
    for (const ok of ['0:00:00', '09:59:59', '23:00:00', '']) expect(z.safeParse(episodeOptionsSchema, { startTimestamp: ok }).success, ok).toBe(true);
    for (const bad of ['24:00:00', '1:2:3', '00:60:00', '12:00', 'noon']) {
      const result = z.safeParse(episodeOptionsSchema, { endTimestamp: bad });
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0].message).toBe('Must be in hh:mm:ss format');
    }
  });
  it('fills the defaults', () => {
    expect(z.parse(episodeOptionsSchema, {})).toEqual({ addLogo: true, addIntroOutro: true, clipStyle: 'DEFAULT', daysBetweenClips: 1 });
  });
  it('turns invalid days between clips into 1', () => {
    expect([7, '30', '31', '0', 'abc', '', 2.5, null].map(normalizeDaysBetweenClips)).toEqual([7, 30, 1, 1, 1, 1, 1, 1]);
  });
});

describe('submission payload', () => {
  it('takes 1 to 10 files', () => {
    expect(z.safeParse(submitEpisodePayloadSchema, { uploadUrls: [] }).success).toBe(false);
    expect(z.safeParse(submitEpisodePayloadSchema, { uploadUrls: Array(11).fill('a.mp4') }).success).toBe(false);
    expect(z.parse(submitEpisodePayloadSchema, { uploadUrls: ['u/a.mp4'] }).episodeData.clipStyle).toBe('DEFAULT');
  });
});

describe('episodeObjectPath', () => {
  it("puts the file in the user's folder with a safe name ending in .mp4", () => {
    expect(episodeObjectPath('u1', 'x', 'My Show (final).MP4')).toBe('u1/x/My-Show-final.mp4');
    expect(episodeObjectPath('u1', 'x', '../../etc/passwd')).toBe('u1/x/etc-passwd.mp4');
    expect(episodeObjectPath('u1', 'x', '.mp4')).toBe('u1/x/episode.mp4');
  });
});

describe('trim times against the video (the rule submit_episode() applies)', () => {
  it('needs the end after the start and one second left after the start', () => {
    expect(trimProblem({ startTimestamp: '00:02:00', endTimestamp: '00:01:00' }, null)).toEqual({
      field: 'endTimestamp',
      message: 'The end time must be after the start time.',
    });
    expect(trimProblem({ startTimestamp: '9:05:07' }, 45)).toEqual({
      field: 'startTimestamp',
      message: 'The start time 9:05:07 is past the end of the video (00:00:45 long).',
    });
    expect(trimProblem({ startTimestamp: '00:00:44' }, 45)).toBeNull();
    expect(trimProblem({ startTimestamp: '00:00:45' }, 46)).toBeNull();
    expect(trimProblem({ startTimestamp: '00:00:45' }, 45.5)).not.toBeNull();
    expect(trimProblem({ startTimestamp: '9:05:07' }, null)).toBeNull();
    expect(trimProblem({ startTimestamp: '', endTimestamp: '' }, 45)).toBeNull();
    expect(trimProblem({ endTimestamp: '10:00:00' }, 45)).toBeNull();
  });
  it('the form schema shows the problem under its field', () => {
    const result = episodeOptionsSchemaFor(45).safeParse({ startTimestamp: '00:01:00' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['startTimestamp'], message: expect.stringMatching(/^The start time 00:01:00 is past the end/) });
  });
});
