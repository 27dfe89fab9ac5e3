// Makes the Platform Introduction video that /onboarding plays by default (issue 43, item 5):
// web/public/intro/platform-introduction.mp4 and its captions, platform-introduction.vtt. Each
// slide is a title and a line drawn with the DejaVu font the worker already ships, narrated by
// Debian's espeak-ng; the captions are the narration, timed slide by slide. The files are
// committed (about 0.5 MB), so a build needs no ffmpeg; run this again after changing a slide:
//   npx tsx scripts/make-intro-video.ts
// A production deployment may embed its own video instead (VITE_INTRO_VIDEO_URL, docs/deploy.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

interface Slide {
  title: string;
  line: string;
  /** What the voice says, and the captions show. */
  narration: string;
}

const SLIDES: Slide[] = [
  {
    title: 'Welcome to Castloop',
    line: 'Done-for-you content from every episode',
    narration: 'Welcome to Castloop. We turn every episode of your podcast into content, done for you.',
  },
  {
    title: '1. Submit your episode',
    line: 'Upload the MP4 from your dashboard',
    narration: 'First, submit your episode. Upload the video from your dashboard, and we take it from there.',
  },
  {
    title: '2. We make the content',
    line: 'Clips, captions, show notes and a blog post',
    narration: 'Next, we make short clips with captions, show notes and a blog post, and put them in your Google Drive.',
  },
  {
    title: '3. Review and post',
    line: 'Approve, and your clips go out on schedule',
    narration: 'Then you review. Approve the episode, and your clips are posted on schedule to the platforms you connect.',
  },
  {
    title: 'Get started',
    line: 'Complete your profile below',
    narration: 'To get started, complete your profile below and connect your Google Drive.',
  },
];

const WIDTH = 640;
const HEIGHT = 360;
/** Silence after each slide's narration, in seconds. */
const PAUSE = 0.6;
const VOICE = ['-v', 'en-us', '-s', '160'];

const repoRoot = path.join(import.meta.dirname, '..');
const outDir = path.join(repoRoot, 'web', 'public', 'intro');
const require = createRequire(import.meta.url);
const fontDir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message} (install ffmpeg and espeak-ng)`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

const seconds = (file: string) =>
  Number(run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file]).trim());

/** 00:00:01.500 */
function vttTime(at: number): string {
  const ms = Math.round(at * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** One slide's video: its text drawn over the brand's dark blue, for as long as its narration and a pause. */
function renderSlide(work: string, slide: Slide, index: number): { file: string; duration: number } {
  const wav = path.join(work, `slide-${index}.wav`);
  run('espeak-ng', [...VOICE, '-w', wav, slide.narration]);
  const duration = seconds(wav) + PAUSE;
  const titleFile = path.join(work, `title-${index}.txt`);
  const lineFile = path.join(work, `line-${index}.txt`);
  writeFileSync(titleFile, slide.title);
  writeFileSync(lineFile, slide.line);
  const text = (file: string, font: string, size: number, y: string, colour: string) =>
    `drawtext=fontfile=${path.join(fontDir, font)}:textfile=${file}:fontsize=${size}:fontcolor=${colour}:x=(w-text_w)/2:y=${y}`;
  const file = path.join(work, `slide-${index}.mp4`);
  run('ffmpeg', [
    '-y', '-loglevel', 'error',
    '-f', 'lavfi', '-i', `color=c=0x1e3a5f:s=${WIDTH}x${HEIGHT}:r=25:d=${duration.toFixed(3)}`,
    '-i', wav,
    '-filter_complex',
    `[0:v]${text(titleFile, 'DejaVuSans-Bold.ttf', 36, '(h/2)-50', 'white')},${text(lineFile, 'DejaVuSans.ttf', 22, '(h/2)+20', '0xcbd5e1')}[v];` +
      `[1:a]apad,atrim=0:${duration.toFixed(3)},aresample=44100[a]`,
    '-map', '[v]', '-map', '[a]',
    '-c:v', 'libx264', '-preset', 'veryslow', '-crf', '30', '-pix_fmt', 'yuv420p', '-tune', 'stillimage',
    '-c:a', 'aac', '-b:a', '48k', '-ac', '1',
    file,
  ]);
  return { file, duration };
}

function main(): void {
  const work = mkdtempSync(path.join(os.tmpdir(), 'castloop-intro-'));
  try {
    const rendered = SLIDES.map((slide, index) => renderSlide(work, slide, index));
    const list = path.join(work, 'slides.txt');
    writeFileSync(list, rendered.map((r) => `file '${r.file}'`).join('\n'));
    mkdirSync(outDir, { recursive: true });
    run('ffmpeg', ['-y', '-loglevel', 'error', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', '-movflags', '+faststart', path.join(outDir, 'platform-introduction.mp4')]);
    let at = 0;
    const cues = rendered.map((r, index) => {
      const cue = `${index + 1}\n${vttTime(at)} --> ${vttTime(at + r.duration - PAUSE)}\n${SLIDES[index].narration}\n`;
      at += r.duration;
      return cue;
    });
    writeFileSync(path.join(outDir, 'platform-introduction.vtt'), `WEBVTT\n\n${cues.join('\n')}`);
    console.log(`web/public/intro/platform-introduction.mp4 (${at.toFixed(1)} s) and .vtt written`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
