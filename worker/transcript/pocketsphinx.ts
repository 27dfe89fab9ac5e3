// The offline engine: Debian's pocketsphinx (5prealpha, `pocketsphinx_continuous`) with its US
// English model (`pocketsphinx-en-us`), on 16 kHz mono audio ffmpeg extracts from the episode.
// `-time yes` prints each recognised word with its start, end (seconds from the start of the
// file) and posterior probability; fillers and silences are dropped. It gives no punctuation, so
// sentences come from pauses (sentences.ts). Longer speech is recognised in pieces side by side,
// one per core unless POCKETSPHINX_PARALLEL says otherwise (speech-segments.ts).
import path from 'node:path';
import { ffmpeg, inputArgs, runBinary } from '../media/ffmpeg.ts';
import { sentencesFromPauses } from './sentences.ts';
import { frameEnergies, quietCuts, segmentCount, wavLayout, writeWavSlice } from './speech-segments.ts';
import type { TranscriptionSettings } from '../config.ts';
import type { TranscriptionEngine } from './transcript.ts';
import { parsePocketsphinxTimes } from '../../supabase/functions/_shared/domain-server/pocketsphinx-output.ts';

/** Word times to the millisecond (pocketsphinx prints hundredths; a piece's offset adds float noise). */
const roundTime = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * The search's pruning: at most 5,000 active HMMs per frame (the default is 30,000), CMUSphinx's
 * own advice for speed. On the tests' espeak-ng script it recognises 1.3x as fast at the same word
 * error rate, on noisy, speech-like sound 1.6x (docs/decisions.md "The content engine").
 */
const PRUNING = ['-maxhmmpf', '5000'];

/** The languages the installed model recognises (only Debian's US English model is packaged). */
const LANGUAGES: Record<string, string> = { en: 'en-US' };

export function pocketsphinxEngine({ binary, modelDir, parallel }: TranscriptionSettings['pocketsphinx']): TranscriptionEngine {
  return {
    name: 'pocketsphinx',
    recognises: (language) => LANGUAGES[language] !== undefined,
    async transcribe({ source, start, end, language, workDir, signal }) {
      const wav = path.join(workDir, 'speech-16k.wav');
      await ffmpeg(
        [...inputArgs('video', source, ['-ss', start.toFixed(3), '-to', end.toFixed(3)]), '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', wav],
        signal,
      );
      // Up to `parallel` recognisers (one per core), each on a piece cut at a quiet moment (speech-segments.ts).
      const layout = await wavLayout(wav);
      const seconds = layout.dataBytes / (2 * layout.channels * layout.sampleRate);
      const parts = segmentCount(seconds, parallel);
      const bounds = [0, ...(parts > 1 ? quietCuts(await frameEnergies(wav, layout), parts) : []), seconds];
      // A piece that fails stops the others: the attempt fails as a whole.
      const stop = new AbortController();
      const pieceSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
      const pieces = bounds.slice(1).map(async (to, i) => {
        const from = bounds[i];
        const file = parts > 1 ? path.join(workDir, `speech-16k-${i}.wav`) : wav;
        if (parts > 1) await writeWavSlice(wav, layout, from, to, file);
        const { stdout } = await runBinary(
          binary,
          [
            '-infile', file, '-time', 'yes', '-logfn', '/dev/null',
            '-hmm', path.join(modelDir, 'en-us'), '-lm', path.join(modelDir, 'en-us.lm.bin'), '-dict', path.join(modelDir, 'cmudict-en-us.dict'),
            ...PRUNING,
          ],
          pieceSignal,
        );
        return parsePocketsphinxTimes(stdout).map((word) => ({ ...word, start: roundTime(word.start + from), end: roundTime(word.end + from) }));
      });
      const words = (
        await Promise.all(
          pieces.map((piece) =>
            piece.catch((error: unknown) => {
              stop.abort();
              throw error;
            }),
          ),
        )
      ).flat();
      return { engine: 'pocketsphinx', language: LANGUAGES[language], durationSeconds: end - start, words, sentences: sentencesFromPauses(words) };
    },
  };
}
