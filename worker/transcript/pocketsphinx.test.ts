// The offline engine's pieces, with a stand-in for pocketsphinx_continuous that answers the same
// two words for any file, and the size of the file it was given: each piece's words come back
// shifted by where the piece starts, in order, and the pieces hold the whole audio once.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentMediaTools } from '../media/ffmpeg.ts';
import { pocketsphinxEngine } from './pocketsphinx.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-pocketsphinx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fakeBinary = path.join(dir, 'pocketsphinx_continuous');
writeFileSync(
  fakeBinary,
  ['#!/bin/sh', 'while [ "$1" != "-infile" ]; do shift; done', 'echo "<s> 0.000 0.100 1.000"', 'echo "hello 0.50 0.90 0.800"', 'echo "world 1.00 1.40 0.900"', 'echo "b$(stat -c %s "$2") 2.00 2.10 1.000"', ''].join('\n'),
);
chmodSync(fakeBinary, 0o755);

/** 50 s of a steady tone in an MP4 (the worker opens every input as one). */
const source = path.join(dir, 'tone.m4a');
const made = spawnSync(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=f=440:d=50:r=16000', '-c:a', 'aac', source]);
if (made.status !== 0) throw new Error(made.stderr.toString());

async function transcribe(parallel: number) {
  const workDir = mkdtempSync(path.join(dir, 'work-'));
  const engine = pocketsphinxEngine({ binary: fakeBinary, modelDir: dir, parallel });
  const transcript = await engine.transcribe({ source, start: 0, end: 50, language: 'en', workDir });
  const sizes = transcript.words.filter((word) => /^b\d+$/.test(word.text)).map((word) => Number(word.text.slice(1)) - 44);
  return { words: transcript.words.filter((word) => !/^b\d+$/.test(word.text)), sizes };
}

describe('pocketsphinx in pieces', () => {
  it("shifts each piece's words by its start and keeps them in order; the pieces hold the audio once", async () => {
    const whole = await transcribe(1);
    expect(whole.words.map(({ text, start, end }) => [text, start, end])).toEqual([
      ['hello', 0.5, 0.9],
      ['world', 1, 1.4],
    ]);
    const pieces = await transcribe(2);
    expect(pieces.sizes).toHaveLength(2);
    // The whole WAV's samples, split in two (its own header may hold a LIST chunk: not counted).
    expect(pieces.sizes[0] + pieces.sizes[1]).toBe(50 * 16000 * 2);
    // Where the first piece ends, within 5 s of the equal share (speech-segments.ts).
    const cut = pieces.sizes[0] / 2 / 16000;
    expect(Math.abs(cut - 25)).toBeLessThanOrEqual(5.05);
    const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;
    expect(pieces.words.map(({ text, start, end }) => [text, start, end])).toEqual([
      ['hello', 0.5, 0.9],
      ['world', 1, 1.4],
      ['hello', ms(cut + 0.5), ms(cut + 0.9)],
      ['world', ms(cut + 1), ms(cut + 1.4)],
    ]);
  });
});
