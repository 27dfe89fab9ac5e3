// Cutting speech into pieces for side-by-side recognisers: how many pieces, where the cuts fall
// (in the quiet near equal shares), and WAV files read and sliced sample for sample.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FRAME_SECONDS, MIN_SEGMENT_SECONDS, frameEnergies, quietCuts, segmentCount, wavLayout, writeWavSlice } from './speech-segments.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-speech-segments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 16-bit mono WAV as ffmpeg writes one: a LIST chunk between `fmt ` and `data`. */
function wavFile(name: string, samples: Int16Array, sampleRate = 16000): string {
  const list = Buffer.from('LIST\x0e\x00\x00\x00INFOISFT\x02\x00\x00\x00x\x00', 'latin1');
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const header = Buffer.alloc(36);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(4 + 24 + list.length + 8 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  const dataHead = Buffer.alloc(8);
  dataHead.write('data', 0, 'ascii');
  dataHead.writeUInt32LE(data.length, 4);
  const file = path.join(dir, name);
  writeFileSync(file, Buffer.concat([header, list, dataHead, data]));
  return file;
}

describe('how many pieces', () => {
  it('one per core, none shorter than MIN_SEGMENT_SECONDS', () => {
    expect(segmentCount(10, 8)).toBe(1);
    expect(segmentCount(MIN_SEGMENT_SECONDS * 2 + 1, 2)).toBe(2);
    expect(segmentCount(MIN_SEGMENT_SECONDS * 2 + 1, 8)).toBe(2);
    expect(segmentCount(3600, 4)).toBe(4);
    expect(segmentCount(3600, 1)).toBe(1);
  });
});

describe('where the cuts fall', () => {
  const speech = (seconds: number) => Array.from({ length: Math.round(seconds / FRAME_SECONDS) }, () => 1000);

  it('in the quietest frame near each equal share', () => {
    const energies = speech(60);
    energies[190] = 3; // 19 s: within reach of the first share's boundary (20 s)
    energies[203] = 5;
    energies[430] = 0; // 43 s: near the second (40 s)
    expect(quietCuts(energies, 3)).toEqual([19.05, 43.05]);
  });

  it('never further than 5 s from an equal share, however quiet it is further on', () => {
    const energies = speech(120);
    energies[300] = 0; // 30 s: 30 s from the only boundary (60 s)
    energies[570] = 10; // 57 s
    expect(quietCuts(energies, 2)).toEqual([57.05]);
  });

  it('at the equal share when every frame is as loud', () => {
    expect(quietCuts(speech(40), 2)).toEqual([20.05]);
  });

  it('none for one piece', () => {
    expect(quietCuts(speech(40), 1)).toEqual([]);
  });
});

describe('WAV files', () => {
  const rate = 16000;
  // Two seconds: a tone, then half a second of silence, then the tone again.
  const samples = Int16Array.from({ length: 2 * rate }, (_, i) => (i >= rate && i < 1.5 * rate ? 0 : Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate))));
  const file = wavFile('tone.wav', samples);

  it('finds the samples past the LIST chunk', async () => {
    const layout = await wavLayout(file);
    expect(layout).toMatchObject({ dataBytes: samples.byteLength, sampleRate: rate, channels: 1 });
    expect(readFileSync(file).readInt16LE(layout.dataOffset + 2)).toBe(samples[1]);
  });

  it('measures each 0.1 s frame: the silence is the quiet part, and a cut lands in it', async () => {
    const energies = await frameEnergies(file, await wavLayout(file));
    expect(energies).toHaveLength(20);
    expect(energies.slice(10, 15)).toEqual([0, 0, 0, 0, 0]);
    expect(Math.min(...energies.slice(0, 10), ...energies.slice(15))).toBeGreaterThan(1e6);
    const [cut] = quietCuts(energies, 2);
    expect(cut).toBeGreaterThanOrEqual(1);
    expect(cut).toBeLessThanOrEqual(1.5);
  });

  it('writes a slice that holds exactly those samples, as a WAV file of its own', async () => {
    const layout = await wavLayout(file);
    const out = path.join(dir, 'slice.wav');
    await writeWavSlice(file, layout, 0.5, 1.25, out);
    const slice = await wavLayout(out);
    expect(slice).toEqual({ dataOffset: 44, dataBytes: 0.75 * rate * 2, sampleRate: rate, channels: 1 });
    const bytes = readFileSync(out).subarray(44);
    expect(new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))).toEqual(samples.slice(0.5 * rate, 1.25 * rate));
  });

  it('refuses a file that is not 16-bit PCM WAV', async () => {
    const notWav = path.join(dir, 'not.wav');
    writeFileSync(notWav, 'hello, this is text');
    await expect(wavLayout(notWav)).rejects.toThrow('is not a WAV file');
  });
});
