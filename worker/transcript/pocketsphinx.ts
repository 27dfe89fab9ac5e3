// The offline engine: Debian's pocketsphinx (5prealpha, `pocketsphinx_continuous`) with its US
// English model (`pocketsphinx-en-us`), on 16 kHz mono audio ffmpeg extracts from the episode.
// `-time yes` prints each recognised word with its start, end (seconds from the start of the
// file) and posterior probability; fillers and silences are dropped. It gives no punctuation, so
// sentences come from pauses (sentences.ts).
import path from 'node:path';
import { ffmpeg, inputArgs, runBinary } from '../media/ffmpeg.ts';
import { sentencesFromPauses } from './sentences.ts';
import type { TranscriptionEngine } from './engine.ts';
import { parsePocketsphinxTimes } from '../../supabase/functions/_shared/domain-server/pocketsphinx-output.ts';

/** The languages the installed model recognises (only Debian's US English model is packaged). */
const LANGUAGES: Record<string, string> = { en: 'en-US' };

export function pocketsphinxEngine(binary: string, modelDir: string): TranscriptionEngine {
  return {
    name: 'pocketsphinx',
    recognises: (language) => LANGUAGES[language] !== undefined,
    async transcribe({ source, start, end, language, workDir, signal }) {
      const wav = path.join(workDir, 'speech-16k.wav');
      await ffmpeg(
        [...inputArgs('video', source, ['-ss', start.toFixed(3), '-to', end.toFixed(3)]), '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', wav],
        signal,
      );
      const { stdout } = await runBinary(
        binary,
        [
          '-infile', wav, '-time', 'yes', '-logfn', '/dev/null',
          '-hmm', path.join(modelDir, 'en-us'), '-lm', path.join(modelDir, 'en-us.lm.bin'), '-dict', path.join(modelDir, 'cmudict-en-us.dict'),
        ],
        signal,
      );
      const words = parsePocketsphinxTimes(stdout);
      return { engine: 'pocketsphinx', language: LANGUAGES[language], durationSeconds: end - start, words, sentences: sentencesFromPauses(words) };
    },
  };
}
