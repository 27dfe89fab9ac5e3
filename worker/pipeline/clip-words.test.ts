import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import { chooseClips, clipTexts, copyForClip, episodeKeywords, episodeTitle } from './clip-words.ts';
import type { AudioProfile } from '../media/clip-selection.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-clip-words-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sentences of 8 words, 0.4 s a word, 0.6 s between sentences. */
function transcript(sentences: string[]): Transcript {
  const words: Transcript['words'] = [];
  const out: Transcript['sentences'] = [];
  let t = 0;
  for (const text of sentences) {
    const firstWord = words.length;
    for (const w of text.split(' ')) {
      words.push({ text: w, start: t, end: t + 0.35 });
      t += 0.4;
    }
    out.push({ text, start: words[firstWord].start, end: words[words.length - 1].end, firstWord, endWord: words.length });
    t += 0.6;
  }
  return { engine: 'test', language: 'en-US', durationSeconds: t, words, sentences: out };
}

const talk = transcript(
  Array.from({ length: 30 }, (_, i) =>
    i % 3 === 0 ? `why do household budgets fail every single month ${i}` : `budgets fail when savings come last in line ${i}`,
  ),
);
const quiet = (duration: number): AudioProfile => ({ windowSeconds: 0.5, windowDb: Array(Math.ceil(duration * 2)).fill(-30), silences: [], durationSeconds: duration });

describe('clips from the words', () => {
  it('uses the transcript\'s keywords, sentences and words; the file name only without them', async () => {
    const keywords = episodeKeywords(talk);
    expect(keywords.slice(0, 3)).toEqual(['budgets', 'fail', 'savings']);
    expect(episodeKeywords(talk, ['given'])).toEqual(['given']);
    expect(episodeKeywords(null)).toEqual([]);

    // The subscriber's title stays; a title that is only the file's name is replaced.
    expect(episodeTitle({ title: 'Money Talk', titleConfirmed: true }, keywords)).toBe('Money Talk');
    expect(episodeTitle({ title: 'episode1', titleConfirmed: false }, keywords)).toBe('Budgets, Fail and Savings');
    expect(episodeTitle({ title: 'episode1', titleConfirmed: false }, [])).toBe('episode1');

    const clips = await chooseClips(talk, quiet(talk.durationSeconds), 3, keywords, { log: () => {} });
    expect(clips).toHaveLength(3);
    expect(clips.every((c) => c.sentences && c.reason)).toBe(true);
    const copy = copyForClip(talk, clips[0], keywords, 'Money Talk', 'Money Talk - clip 01');
    expect(copy.title).toMatch(/^Why do household budgets fail every single month \d+\?$/);
    expect(copyForClip(null, clips[0], [], 'Money Talk', 'Money Talk - clip 01')).toMatchObject({ title: 'Money Talk - clip 01', posts: { x: { text: 'Money Talk - clip 01' } } });
    // No transcript, or no run of sentences long enough for a clip: by sound.
    expect((await chooseClips(null, quiet(120), 3, [], { log: () => {} })).every((c) => !c.sentences && /^Chosen by sound alone/.test(c.reason))).toBe(true);
    const one = transcript(['a few words said once']);
    expect((await chooseClips(one, quiet(120), 3, [], { log: () => {} })).every((c) => !c.sentences)).toBe(true);
  });

  it("takes a writing engine's rating when it gives one, and the words and sound when it fails", async () => {
    const keywords = episodeKeywords(talk);
    const logged: string[] = [];
    const log = (line: string) => logged.push(line);
    const rated = await chooseClips(talk, quiet(talk.durationSeconds), 2, keywords, { log, rate: async (moments) => moments.map(() => ({ score: 0.9, reason: 'Says it plainly.' })) });
    expect(rated.map((c) => c.reason)).toEqual(['Says it plainly.', 'Says it plainly.']);
    expect(logged).toEqual([]);
    const failing = await chooseClips(talk, quiet(talk.durationSeconds), 2, keywords, { log, rate: () => Promise.reject(new Error('the model timed out')) });
    expect(failing).toEqual(await chooseClips(talk, quiet(talk.durationSeconds), 2, keywords, { log: () => {} }));
    expect(logged).toEqual(["clips chosen without the writing engine's rating: the model timed out"]);
  });

  it('captions a moment with words and titles one without', async () => {
    const base = {
      trimStart: 0,
      main: { file: 'unused.mp4', info: { durationSeconds: 60, video: null, hasAudio: true } },
      frame: { look: 'DEFAULT', aspect: 'portrait' } as const,
      colours: { primary: '1F2937', secondary: '6366F1', tertiary: 'F59E0B' },
      brandFont: null,
      fonts: { registry: null, cacheDir: path.join(dir, 'fonts') },
      width: 180,
      height: 320,
      title: { textFile: path.join(dir, 'title.txt'), length: 10 },
      dir,
      log: () => {},
    };
    const clip = { start: 5, end: 12, score: 1, reason: 'A complete thought.', startsAtPause: true, endsAtPause: true };
    const [spoken] = await clipTexts({ ...base, transcript: talk }, [clip]);
    expect(spoken.title).toBeUndefined();
    const ass = readFileSync(spoken.captions?.assFile as string, 'utf8');
    expect(ass).toContain('Style: Caption,DejaVu Sans,');
    // The first word inside the clip (5 s into the episode), timed from the clip's start.
    expect(ass).toMatch(/^Dialogue: 0,0:00:00\.00,0:00:00\.40,.*\}when\{\\r\} savings come$/m);
    expect(await clipTexts({ ...base, transcript: null }, [clip, clip])).toEqual([{ title: base.title }, { title: base.title }]);
  });
});
