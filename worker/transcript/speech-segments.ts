// Splitting the episode's speech for recognisers that run on one core (pocketsphinx): the 16 kHz
// mono WAV is cut at its quietest moments near equal shares, so the pieces can be recognised side
// by side without cutting through a word. A recogniser's cost is the audio's length, so an hour
// on N cores takes about 1/N of the time.
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

/** Below this a piece is not worth a recogniser of its own (pocketsphinx loads its model in ~0.7 CPU s). */
export const MIN_SEGMENT_SECONDS = 20;
/** Loudness is read in frames of this length; a cut falls in the middle of the quietest. */
export const FRAME_SECONDS = 0.1;
/** How far from an equal share a cut may move to find quiet. */
const SEARCH_SECONDS = 5;

/** How many pieces `seconds` of speech are recognised in, on `cores` cores. */
export function segmentCount(seconds: number, cores: number): number {
  return Math.max(1, Math.min(cores, Math.floor(seconds / MIN_SEGMENT_SECONDS)));
}

/**
 * Where to cut audio whose frames (FRAME_SECONDS each) have the given energies into `parts`
 * pieces: for each boundary between equal shares, the middle of the quietest frame within
 * SEARCH_SECONDS of it (and within a quarter share, so no piece shrinks to nothing). Seconds from
 * the start of the audio to the millisecond, ascending.
 */
export function quietCuts(energies: readonly number[], parts: number): number[] {
  const total = energies.length;
  const share = total / parts;
  const reach = Math.max(0, Math.floor(Math.min(SEARCH_SECONDS / FRAME_SECONDS, share / 4)));
  const cuts: number[] = [];
  for (let i = 1; i < parts; i++) {
    const nominal = Math.round(share * i);
    let quietest = Math.min(nominal, total - 1);
    for (let frame = Math.max(0, nominal - reach); frame <= Math.min(total - 1, nominal + reach); frame++) {
      // Ties go to the frame nearest the equal share.
      const better = energies[frame] < energies[quietest] || (energies[frame] === energies[quietest] && Math.abs(frame - nominal) < Math.abs(quietest - nominal));
      if (better) quietest = frame;
    }
    cuts.push(Math.round((quietest + 0.5) * FRAME_SECONDS * 1000) / 1000);
  }
  return cuts;
}

/** Where the samples of a 16-bit PCM WAV file are, and how they are laid out. */
export interface WavLayout {
  dataOffset: number;
  dataBytes: number;
  sampleRate: number;
  channels: number;
}

/** Reads the RIFF chunks before the samples (ffmpeg may write a LIST chunk before `data`). */
export async function wavLayout(file: string): Promise<WavLayout> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') throw new Error(`${file} is not a WAV file`);
    let at = 12;
    let format: { sampleRate: number; channels: number; bits: number; code: number } | null = null;
    while (at + 8 <= bytesRead) {
      const id = head.toString('ascii', at, at + 4);
      const size = head.readUInt32LE(at + 4);
      if (id === 'fmt ') format = { code: head.readUInt16LE(at + 8), channels: head.readUInt16LE(at + 10), sampleRate: head.readUInt32LE(at + 12), bits: head.readUInt16LE(at + 22) };
      if (id === 'data') {
        if (!format || format.code !== 1 || format.bits !== 16) throw new Error(`${file} is not 16-bit PCM`);
        const { size: fileSize } = await handle.stat();
        // A streamed WAV may leave the size unset (0 or 0xFFFFFFFF): the samples run to the end.
        const dataBytes = size === 0 || size === 0xffffffff ? fileSize - (at + 8) : Math.min(size, fileSize - (at + 8));
        return { dataOffset: at + 8, dataBytes, sampleRate: format.sampleRate, channels: format.channels };
      }
      at += 8 + size + (size % 2);
    }
    throw new Error(`${file} has no samples where a WAV file keeps them`);
  } finally {
    await handle.close();
  }
}

const bytesPerFrame = (layout: WavLayout) => 2 * layout.channels;

/** Mean square of the samples in each FRAME_SECONDS of the file (a partial last frame included). */
export async function frameEnergies(file: string, layout: WavLayout): Promise<number[]> {
  const samplesPerFrame = Math.max(1, Math.round(layout.sampleRate * FRAME_SECONDS)) * layout.channels;
  const energies: number[] = [];
  let sum = 0;
  let count = 0;
  let carry: Buffer | null = null;
  const stream = createReadStream(file, { start: layout.dataOffset, end: layout.dataOffset + layout.dataBytes - 1, highWaterMark: 1 << 20 });
  for await (const read of stream as AsyncIterable<Buffer>) {
    const chunk: Buffer = carry ? Buffer.concat([carry, read]) : read;
    const whole = chunk.length - (chunk.length % 2);
    for (let i = 0; i < whole; i += 2) {
      const sample = chunk.readInt16LE(i);
      sum += sample * sample;
      if (++count === samplesPerFrame) {
        energies.push(sum / count);
        sum = 0;
        count = 0;
      }
    }
    carry = whole < chunk.length ? chunk.subarray(whole) : null;
  }
  if (count > 0) energies.push(sum / count);
  return energies;
}

/** Writes the samples from `from` to `to` seconds as a WAV file of their own (a 44-byte header). */
export async function writeWavSlice(file: string, layout: WavLayout, from: number, to: number, out: string): Promise<void> {
  const frame = bytesPerFrame(layout);
  const byteAt = (seconds: number) => Math.min(layout.dataBytes, Math.max(0, Math.round(seconds * layout.sampleRate)) * frame);
  const start = byteAt(from);
  const length = byteAt(to) - start;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(layout.channels, 22);
  header.writeUInt32LE(layout.sampleRate, 24);
  header.writeUInt32LE(layout.sampleRate * frame, 28);
  header.writeUInt16LE(frame, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(length, 40);
  const samples = length > 0 ? createReadStream(file, { start: layout.dataOffset + start, end: layout.dataOffset + start + length - 1 }) : [];
  await pipeline(async function* () {
    yield header;
    yield* samples;
  }, createWriteStream(out));
}
