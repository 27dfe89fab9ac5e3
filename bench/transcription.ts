// The offline speech engine (pocketsphinx, worker/transcript/pocketsphinx.ts) on the tests'
// generated speech (espeak-ng reading a known script, tests/support/speech.ts): seconds of
// transcription per minute of audio, and the word error rate against the script. No stack needed.
//   npx tsx bench/transcription.ts
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAlone, type Row } from './lib/rows.ts';

export async function bench(): Promise<Row[]> {
  const { loadWorkerConfig } = await import('../worker/config.ts');
  const { pocketsphinxEngine } = await import('../worker/transcript/pocketsphinx.ts');
  const { probe } = await import('../worker/media/ffmpeg.ts');
  const { episodeWith, spokenWav, SPEECH_SCRIPT, wordErrorRate } = await import('../tests/support/speech.ts');
  // Only the transcription settings are read: the required connection settings are placeholders.
  const { pocketsphinx } = loadWorkerConfig({ WORKER_DATABASE_URL: 'postgres://x/y', SUPABASE_URL: 'http://x', SUPABASE_SERVICE_ROLE_KEY: 'x', TOKEN_ENCRYPTION_KEYS: 'x', ...process.env }).transcription;
  const source = episodeWith({ wav: spokenWav() });
  const { durationSeconds } = await probe(source);
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'bench-transcription-'));
  try {
    const began = process.hrtime.bigint();
    const transcript = await pocketsphinxEngine(pocketsphinx).transcribe({ source, start: 0, end: durationSeconds, language: 'en', workDir });
    const seconds = Number(process.hrtime.bigint() - began) / 1e9;
    const wer = wordErrorRate(SPEECH_SCRIPT, transcript.words.map((w) => w.text).join(' '));
    const minutes = durationSeconds / 60;
    console.log(`pocketsphinx: ${durationSeconds.toFixed(1)} s of speech in ${seconds.toFixed(1)} s; WER ${wer.toFixed(3)}`);
    return [
      { bench: 'transcription', figure: 'pocketsphinx time per minute of audio', value: seconds / minutes, unit: 's/min', detail: `${durationSeconds.toFixed(0)} s of espeak-ng speech` },
      { bench: 'transcription', figure: 'pocketsphinx word error rate (espeak-ng script)', value: wer, unit: '', budget: { limit: 0.5, kind: 'max' }, detail: 'bound as in tests/stack/content.test.ts' },
    ];
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
