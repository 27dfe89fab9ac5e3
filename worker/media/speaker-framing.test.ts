import { describe, expect, it } from 'vitest';
import { cropExpression, speakerPath, type Face } from './speaker-framing.ts';

const face = (x: number, motion = 0): Face => ({ x, y: 100, w: 100, h: 100, motion });
const samples = (frames: Face[][]) => ({ interval: 0.5, frames });

describe('speakerPath', () => {
  it('holds the camera still while the face moves a little, and drops a single false detection', () => {
    const jitter = [800, 820, 790, 810, 2400, 805, 815, 800].map((x) => [face(x)]);
    const keys = speakerPath(samples(jitter), 1920, 608);
    expect(keys).toEqual([{ t: 0, x: 546 }]);
  });

  it('glides to the other speaker when the talking moves there, instead of jumping', () => {
    // Two faces; the left one talks (mouth moving) first, then the right one.
    const frames = Array.from({ length: 12 }, (_, i) => [face(300, i < 6 ? 10 : 0), face(1500, i < 6 ? 0 : 10)]);
    const keys = speakerPath(samples(frames), 1920, 608) as { t: number; x: number }[];
    expect(keys[0]).toEqual({ t: 0, x: 46 });
    const last = keys[keys.length - 1];
    expect(last.x).toBe(1246);
    // The move takes time: the camera leaves 46 at one key and reaches 1246 0.8 s later.
    const move = keys.findIndex((k) => k.x === 1246);
    expect(keys[move - 1].x).toBe(46);
    expect(keys[move].t - keys[move - 1].t).toBeCloseTo(0.8, 5);
  });

  it('gives up on framing when faces are rare', () => {
    expect(speakerPath(samples([[face(500)], [], [], [], []]), 1920, 608)).toBeNull();
    expect(speakerPath(samples([]), 1920, 608)).toBeNull();
  });

  it('writes the path as one ffmpeg expression of t', () => {
    expect(cropExpression([{ t: 0, x: 46 }])).toBe('46');
    expect(cropExpression([{ t: 0, x: 46 }, { t: 2, x: 46 }, { t: 2.8, x: 1246 }])).toBe('46+1200*clip((t-2.000)/0.800,0,1)');
  });
});
