// Speech for the content engine's tests: a known script spoken by Debian's espeak-ng, muxed
// with a test picture into an MP4 episode. Made once per test run (cached by script and voice).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { currentMediaTools } from '../../worker/media/ffmpeg.ts';

/**
 * Three topics (gardening, coffee, the city's library), each named several times, in plain
 * words a general language model knows; sentences end in full stops, where espeak-ng pauses.
 */
export const SPEECH_SCRIPT = [
  'Welcome to the show. Today we talk about gardening, coffee and the library.',
  'First, gardening. My garden is full of tomatoes this summer. Tomatoes need water and a lot of sun.',
  'I water the garden every morning before work. The tomatoes are red and sweet.',
  'Next, coffee. I drink a cup of coffee every morning. Good coffee starts with fresh beans.',
  'You grind the coffee beans and add hot water. A strong cup of coffee makes me happy.',
  'Last, the library. The city library has a new building. You can read books and use the computers.',
  'The library is free for everyone. I go to the library every week to find a new book.',
  'Thank you for listening. See you next week.',
].join(' ');

/**
 * The script with a clear pause after each sentence (SSML, spoken with SPOKEN_WITH_PAUSES): the
 * offline engine ends a sentence at a pause of half a second, longer than espeak-ng's own.
 */
export const withPauses = (script: string) => script.replace(/([.?!]) /g, '$1 <break time="800ms"/> ');

/** The topics the show notes and the blog post must name. */
export const SPEECH_TOPICS = ['garden', 'coffee', 'library'];

/** espeak-ng's US English voice with the klatt2 variant at 175 words a minute: the one pocketsphinx recognises best (docs/decisions.md). */
export const SPEECH_VOICE = ['-v', 'en-us+klatt2', '-s', '175'];

/** The same voice reading SSML (withPauses). */
export const SPOKEN_WITH_PAUSES = [...SPEECH_VOICE, '-m'];

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not run (${result.error.message}): npm test installs it (scripts/ensure-ffmpeg.sh)`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.toString()}`);
}

const cacheDir = path.join(os.tmpdir(), 'castloop-speech-fixtures');

/** The script spoken to a WAV file. */
export function spokenWav(script = SPEECH_SCRIPT, voice = SPEECH_VOICE): string {
  mkdirSync(cacheDir, { recursive: true });
  const key = createHash('sha256').update(JSON.stringify([script, voice])).digest('hex').slice(0, 16);
  const wav = path.join(cacheDir, `speech-${key}.wav`);
  if (!existsSync(wav)) {
    // Written under another name first: a run stopped half-way leaves no broken cache entry.
    run('espeak-ng', [...voice, '-w', `${wav}.tmp`, script]);
    run('mv', [`${wav}.tmp`, wav]);
  }
  return wav;
}

/**
 * An MP4 episode: `lead` seconds of silence, the audio (speech WAV, or an ffmpeg lavfi source such
 * as music), then `tail` seconds of silence, over a 320x180 test picture.
 */
export function episodeWith(audio: { wav: string } | { lavfi: string; seconds: number } | null, options: { lead?: number; tail?: number; seconds?: number } = {}): string {
  mkdirSync(cacheDir, { recursive: true });
  const key = createHash('sha256').update(JSON.stringify([audio, options])).digest('hex').slice(0, 16);
  const out = path.join(cacheDir, `episode-${key}.mp4`);
  if (existsSync(out)) return out;
  const lead = options.lead ?? 1;
  const tail = options.tail ?? 1;
  const source = audio === null ? ['-f', 'lavfi', '-t', String(options.seconds ?? 20), '-i', 'anullsrc=r=16000:cl=mono'] : 'wav' in audio ? ['-i', audio.wav] : ['-f', 'lavfi', '-t', String(audio.seconds), '-i', audio.lavfi];
  run(currentMediaTools().ffmpeg, [
    '-hide_banner', '-nostdin', '-y', '-loglevel', 'error',
    ...source,
    '-f', 'lavfi', '-i', 'testsrc=s=320x180:r=10',
    '-filter_complex', `[0:a]aresample=16000,adelay=${lead * 1000}:all=1,apad=pad_dur=${tail}[a]`,
    '-map', '1:v', '-map', '[a]', '-shortest',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', `${out}.tmp.mp4`,
  ]);
  run('mv', [`${out}.tmp.mp4`, out]);
  return out;
}

/** Word error rate: word-level edit distance between `hypothesis` and `reference`, over the reference's length. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const words = (text: string) => text.toLowerCase().match(/[a-z0-9']+/g) ?? [];
  const ref = words(reference);
  const hyp = words(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j += 1) row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[hyp.length] / Math.max(1, ref.length);
}

/** An audio-only MP4 episode (AAC sound, no picture track) of the WAV, as podcasters record them. */
export function audioOnlyEpisode(wav: string): string {
  mkdirSync(cacheDir, { recursive: true });
  const key = createHash('sha256').update(wav).digest('hex').slice(0, 16);
  const out = path.join(cacheDir, `audio-only-${key}.mp4`);
  if (existsSync(out)) return out;
  run(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-i', wav, '-vn', '-c:a', 'aac', '-b:a', '96k', `${out}.tmp.mp4`]);
  run('mv', [`${out}.tmp.mp4`, out]);
  return out;
}
