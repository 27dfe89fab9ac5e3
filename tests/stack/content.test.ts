// The content engine end to end (issue 27): a spoken episode (espeak-ng reading a known script)
// gets a transcript within the word error bound, caption files that parse and line up with the
// words, show notes, a blog post and clip posts the writing engine wrote (the test stack's worker
// writes with the sandbox's chat completions: issue 42) naming the script's topics, its tokens
// and cost recorded, and the blog post on the subscriber's WordPress; when the engine refuses,
// the offline engine writes and the episode says why; a silent, a music-only and a Japanese
// episode are delivered with what can be made and the reason for the rest. One processed
// submission serves several assertions.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeContentAnswer } from '../../supabase/functions/_shared/domain/episode-content.ts';
import type { EpisodeClip } from '../../supabase/functions/_shared/domain/episode-clips.ts';
import { SANDBOX_OPENAI_API_KEY } from '../../local/sandbox/openai/index.ts';
import { contentReasons } from '../../worker/pipeline/content-stage.ts';
import { stopwordsOf } from '../../worker/content/stopwords.ts';
import { openaiEngine } from '../../worker/transcript/openai.ts';
import { repeatsItself } from '../../worker/writing/chat/faithful.ts';
import { useAutomation } from '../support/episodes.ts';
import { makeFixtures, probeFile, type Fixtures } from '../support/media.ts';
import { downloadFromDrive, readySubscriber, sandboxFiles, submit, waitFor, finished, type ProcessingRow } from '../support/processing.ts';
import { audioOnlyEpisode, episodeWith, spokenWav, SPEECH_SCRIPT, SPEECH_TOPICS, wordErrorRate } from '../support/speech.ts';
import { currentMediaTools } from '../../worker/media/ffmpeg.ts';
import { spawnSync } from 'node:child_process';
import { config, withDb } from '../support/stack.ts';
import { signIn } from '../support/submissions.ts';
import { createUser, type TestUser } from '../support/users.ts';
import { connectWordpress } from '../support/platforms.ts';

/**
 * Word error rate bound for pocketsphinx's general US English model on espeak-ng's voice. We
 * measured 0.34 on this script in one piece and 0.38 in two, one per core (bench: `npm run
 * bench`); a synthetic formant voice is far from the speech the model was trained on, so this is
 * not the engine's quality on real podcasts. The bound leaves room for run-to-run variation while
 * failing on what breaks transcripts (wrong sample rate, a lost model, words out of order), which
 * give 0.9 and more.
 */
const WER_BOUND = 0.5;

let dir: string;
let media: Fixtures;

useAutomation('builtin');

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-content-'));
  media = makeFixtures(dir, 10);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const setLanguage = (user: TestUser, language: string) => withDb((db) => db.query(`update public.profiles set podcast_language = $2 where id = $1`, [user.id, language]));
const setPodcast = (user: TestUser, title: string, author: string) =>
  withDb((db) => db.query(`update public.profiles set podcast_title = $2, podcast_author = $3 where id = $1`, [user.id, title, author]));

interface WritingUsageRow {
  engine: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: string;
  fell_back: boolean;
}
const writingUsage = (processingId: string) =>
  withDb(async (db) => (await db.query<WritingUsageRow>('select engine, requests, prompt_tokens, completion_tokens, cost_usd, fell_back from private.writing_usage where episode_processing_id = $1', [processingId])).rows);

type ChatExchange = { request: { messages: { role: string; content: string }[] }; status: number; answer: { usage?: { prompt_tokens: number; completion_tokens: number } } };
const chatExchanges = async (saying: string) =>
  ((await (await fetch(`${config.urls.sandbox}/_sandbox/openai/chat/exchanges`)).json()) as { exchanges: ChatExchange[] }).exchanges.filter((e) =>
    e.request.messages.some((m) => m.content.includes(saying)),
  );
const chatBehaviour = (body: Record<string, unknown>) =>
  fetch(`${config.urls.sandbox}/_sandbox/openai/chat/behaviour`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

interface Cue {
  start: number;
  end: number;
  text: string;
}

/** A minimal SRT/WebVTT reader: blocks of an optional number, a timing line and text. */
function parseCues(text: string): Cue[] {
  const seconds = (t: string) => {
    const [h, m, s] = t.replace(',', '.').split(':');
    return Number(h) * 3600 + Number(m) * 60 + Number(s);
  };
  return text
    .split(/\n\n+/)
    .map((block) => block.split('\n'))
    .flatMap((lines) => {
      const at = lines.findIndex((l) => l.includes(' --> '));
      if (at < 0) return [];
      const [from, to] = lines[at].split(' --> ');
      return [{ start: seconds(from), end: seconds(to), text: lines.slice(at + 1).join(' ').trim() }];
    });
}

async function contentOf(client: { auth: { getSession(): Promise<{ data: { session: { access_token: string } | null } }> } }, episodeId: string) {
  const { data } = await client.auth.getSession();
  return fetch(`${config.urls.api}/functions/v1/api/episodes/${episodeId}/content`, { headers: { authorization: `Bearer ${data.session?.access_token}` } });
}

/** The script's first two sentences (the greeting) and last two (the sign-off), as espeak-ng says them alone: how long each lasts. */
function scriptEdges(): { greetingEnds: number; signOffStarts: number } {
  const sentences = SPEECH_SCRIPT.split(/(?<=\.) /);
  const seconds = (script: string) => probeFile(spokenWav(script)).durationSeconds;
  // The episode's speech starts 1 s in (episodeWith's lead).
  return { greetingEnds: 1 + seconds(sentences.slice(0, 2).join(' ')), signOffStarts: 1 + seconds(SPEECH_SCRIPT) - seconds(sentences.slice(-2).join(' ')) };
}

/**
 * Issue 42, item 4, on the episode page: fewer clips than Scale's 10, in
 * order, apart (a gap of seconds between them), together at most half the episode, none the
 * greeting or the sign-off, each with a score of 0..1 and a reason.
 */
async function expectClipsAnEditorWouldChoose(client: SupabaseClient, episodeId: string, mainSeconds: number): Promise<void> {
  // What the episode page reads (public.episode_page, as its owner).
  const { data: page, error } = await client.rpc('episode_page', { p_episode_id: episodeId });
  expect(error).toBeNull();
  const clips = (page as { processing: { clips: EpisodeClip[] } }).processing.clips;
  const { greetingEnds, signOffStarts } = scriptEdges();
  console.log(
    `clips of the spoken episode (${mainSeconds.toFixed(1)} s, greeting to ${greetingEnds.toFixed(1)} s, sign-off from ${signOffStarts.toFixed(1)} s): ` +
      clips.map((c) => `${c.startSeconds.toFixed(1)}-${c.endSeconds.toFixed(1)} s, ${c.score}: ${c.reason}`).join(' | '),
  );
  expect(clips.length).toBeGreaterThan(0);
  expect(clips.length).toBeLessThan(10);
  let held = 0;
  clips.forEach((clip, i) => {
    expect(clip.score).toBeGreaterThanOrEqual(0);
    expect(clip.score).toBeLessThanOrEqual(1);
    expect(clip.reason).toMatch(/^[A-Z].{10,}\.$/);
    // Half a second of slack: the greeting's last word and the clip's edge in the pause after it.
    expect(clip.startSeconds).toBeGreaterThanOrEqual(greetingEnds - 0.5);
    expect(clip.endSeconds).toBeLessThanOrEqual(signOffStarts + 0.5);
    if (i > 0) expect(clip.startSeconds - clips[i - 1].endSeconds).toBeGreaterThanOrEqual(1);
    held += clip.endSeconds - clip.startSeconds;
  });
  expect(held).toBeLessThanOrEqual(mainSeconds / 2 + 0.5 * clips.length);
}

describe('content engine', () => {
  it('transcribes spoken English and delivers captions, transcript, clips an editor would choose, and show notes, clip posts and a WordPress blog post written by the writing engine', async () => {
    // Scale: up to 10 clips, which a 45-second episode has not got (issue 42: they were the episode cut end to end).
    const { user, client, driveToken } = await readySubscriber(media, 'scale');
    const site = `content-${user.id.slice(0, 8)}`;
    await connectWordpress(user, site);
    await setLanguage(user, 'en');
    const show = `Garden Hour ${user.id.slice(0, 8)}`;
    await setPodcast(user, show, 'Sam Host');
    const episode = await submit(client, user, { addLogo: false, title: 'Test Show 12' }, episodeWith({ wav: spokenWav() }));
    const row = (await waitFor(client, episode.id, finished, 240_000)) as ProcessingRow & { content: EpisodeContentAnswer['content'] };
    expect(row).toMatchObject({ status: 'delivered', failure_reason: null });
    const content = row.content;
    expect(content?.problems).toEqual([]);
    expect(content?.transcript).toMatchObject({ engine: 'pocketsphinx', language: 'en-US' });

    // The transcript's words against the script.
    const transcriptOut = row.outputs.find((o) => o.kind === 'transcript');
    const transcriptText = readFileSync(await downloadFromDrive(dir, transcriptOut!.driveFileId, driveToken, 'transcript.txt'), 'utf8');
    const spoken = transcriptText.replace(/\[\d\d:\d\d:\d\d\]/g, ' ');
    const wer = wordErrorRate(SPEECH_SCRIPT, spoken);
    console.log(`pocketsphinx word error rate on the espeak-ng script: ${wer.toFixed(3)}`);
    expect(wer).toBeLessThan(WER_BOUND);

    // Captions for the episode and every clip, in both formats, all in the episode's folder.
    const videos = row.outputs.filter((o) => o.kind === 'episode' || o.kind === 'clip');
    const captions = row.outputs.filter((o) => o.kind === 'captions');
    expect(captions.map((c) => c.name).sort()).toEqual(videos.flatMap((v) => [v.name.replace(/\.mp4$/, '.srt'), v.name.replace(/\.mp4$/, '.vtt')]).sort());
    const inFolder = (await sandboxFiles()).filter((f) => f.parents.includes(row.drive_folder_id as string));
    expect(inFolder.map((f) => f.name).sort()).toEqual(row.outputs.map((o) => o.name).sort());

    // The episode's SRT and VTT: the same cues, the words in order, shifted by the 2 s intro,
    // inside the episode, each cue's words said between its times (the speech starts 1 s in).
    const episodeOut = videos.find((v) => v.kind === 'episode')!;
    const srtOut = captions.find((c) => c.name.endsWith('.srt') && c.captionsFor === episodeOut.name)!;
    const vttOut = captions.find((c) => c.name.endsWith('.vtt') && c.captionsFor === episodeOut.name)!;
    const srt = readFileSync(await downloadFromDrive(dir, srtOut.driveFileId, driveToken, 'episode.srt'), 'utf8');
    const vtt = readFileSync(await downloadFromDrive(dir, vttOut.driveFileId, driveToken, 'episode.vtt'), 'utf8');
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    const srtCues = parseCues(srt);
    expect(parseCues(vtt)).toEqual(srtCues);
    expect(srtCues.length).toBeGreaterThan(5);
    expect(srtCues.map((c) => c.text).join(' ')).toBe(spoken.split(/\s+/).filter(Boolean).join(' ').toLowerCase().replace(/[.]/g, ''));
    expect(srtCues[0].start).toBeGreaterThan(2 + 1 - 0.5);
    expect(srtCues[0].start).toBeLessThan(2 + 1 + 1);
    for (const [i, cue] of srtCues.entries()) {
      expect(cue.end).toBeGreaterThan(cue.start);
      expect(cue.end).toBeLessThanOrEqual(episodeOut.durationSeconds);
      if (i > 0) expect(cue.start).toBeGreaterThanOrEqual(srtCues[i - 1].end);
    }
    // A clip's captions run from its own start: inside the clip, after its 1 s clip intro.
    const clip = videos.find((v) => v.kind === 'clip')!;
    const clipSrt = captions.find((c) => c.name.endsWith('.srt') && c.captionsFor === clip.name)!;
    const clipCues = parseCues(readFileSync(await downloadFromDrive(dir, clipSrt.driveFileId, driveToken, 'clip.srt'), 'utf8'));
    expect(clipCues.length).toBeGreaterThan(0);
    expect(clipCues[0].start).toBeGreaterThanOrEqual(1);
    expect(clipCues[clipCues.length - 1].end).toBeLessThanOrEqual(clip.durationSeconds);

    // Clips are cut on whole sentences and named from their own words, not the file name: each a
    // record with the sentences it holds.
    const { data: clips } = await client
      .from('episode_clips')
      .select('title, file_name, first_sentence, end_sentence')
      .eq('episode_processing_id', row.id);
    expect(clips?.length).toBeGreaterThan(0);
    for (const c of clips ?? []) {
      expect(c.end_sentence).toBeGreaterThan(c.first_sentence ?? Infinity);
      expect(c.title).toBeTruthy();
      expect(c.title).not.toBe(c.file_name.replace(/\.mp4$/, ''));
    }
    await expectClipsAnEditorWouldChoose(client, episode.id, episodeOut.durationSeconds - 2 - 2);

    // Show notes and the blog post, written by the engine (the sandbox's own words), name the
    // script's topics; quotes are said in the episode; an episode this short has no chapters.
    const notes = content!.showNotes!;
    for (const topic of SPEECH_TOPICS) expect(notes.keywords.join(' ')).toContain(topic);
    expect(notes.chapters).toEqual([]);
    expect(notes.summary).toMatch(/^In this episode: /);
    expect(notes.quotes.length).toBeGreaterThan(0);
    for (const quote of notes.quotes) expect(spoken.replace(/\s+/g, ' ').toLowerCase()).toContain(quote.text.replace(/[.]$/, '').toLowerCase());
    expect(content?.titleSuggestions?.length).toBeGreaterThan(0);
    const notesOut = row.outputs.find((o) => o.kind === 'show notes')!;
    const notesFile = readFileSync(await downloadFromDrive(dir, notesOut.driveFileId, driveToken, 'notes.md'), 'utf8');
    expect(notesFile).toContain(notes.summary);
    expect(notesFile).not.toContain('## Chapters');
    const blogOut = row.outputs.find((o) => o.kind === 'blog post')!;
    const blog = readFileSync(await downloadFromDrive(dir, blogOut.driveFileId, driveToken, 'blog.md'), 'utf8');
    for (const topic of SPEECH_TOPICS) expect(blog.toLowerCase()).toContain(topic);
    expect(blog).toContain('This episode is about ');
    expect(blog).toMatch(/^## /m);
    expect(blog).toContain(`[Watch the full episode](`);

    // Each clip's title and posts are the engine's too, within their limits.
    const { data: written } = await client.from('episode_clips').select('title, posts').eq('episode_processing_id', row.id);
    for (const clip of written ?? []) {
      expect(clip.posts.x.text).toMatch(/^Hear this: /);
      expect(clip.posts.youtube.description).toContain('#Shorts');
    }

    // The podcast's details went in; the requests' tokens and their cost are recorded.
    const exchanges = await chatExchanges(show);
    // The clips' moments rated, the transcript's notes, the episode's texts, the clips' posts.
    expect(exchanges.map((e) => e.status)).toEqual([200, 200, 200, 200]);
    expect(exchanges[0].request.messages.find((m) => m.role === 'user')?.content).toContain('Sam Host');
    const usage = await writingUsage(row.id);
    const prompt = exchanges.reduce((n, e) => n + (e.answer.usage?.prompt_tokens ?? 0), 0);
    const completion = exchanges.reduce((n, e) => n + (e.answer.usage?.completion_tokens ?? 0), 0);
    expect(usage).toEqual([{ engine: 'openai gpt-4o-mini', requests: 4, prompt_tokens: prompt, completion_tokens: completion, cost_usd: expect.any(String), fell_back: false }]);
    // The engine's rating chose the clips: its reasons are theirs.
    const { data: reasons } = await client.from('episode_clips').select('reason').eq('episode_processing_id', row.id);
    expect(reasons?.length).toBeGreaterThan(0);
    for (const clip of reasons ?? []) expect(clip.reason).toMatch(/^Rated by the sandbox writer: /);
    // Kept to the micro-dollar.
    expect(Math.abs(Number(usage[0].cost_usd) - (prompt * 0.15 + completion * 0.6) / 1e6)).toBeLessThanOrEqual(0.000001);
    expect(Number(usage[0].cost_usd)).toBeGreaterThan(0);

    // The offline engine is unsure of the synthetic voice's words: nothing goes out, even with no
    // review window, until the owner approves; then WordPress receives the post as a draft (they do
    // not post automatically), in HTML.
    type SocialPost = { platform: string; owner: string; text: string; status?: string; content?: string };
    const wordpressPosts = async () =>
      ((await (await fetch(`${config.urls.sandbox}/_sandbox/social`)).json()) as { posts: SocialPost[] }).posts.filter((p) => p.owner === `wordpress:${site}`);
    const { rows: [review] } = await withDb((db) => db.query('select review_hold from public.episode_processing where id = $1', [row.id]));
    expect(review.review_hold).toBe('low_confidence');
    expect(await wordpressPosts()).toEqual([]);
    const approved = await client.rpc('approve_episode', { p_episode_id: episode.id });
    expect(approved.error).toBeNull();
    await expect.poll(async () => (await wordpressPosts()).length, { timeout: 30_000, interval: 250 }).toBe(1);
    const [post] = await wordpressPosts();
    expect(post).toMatchObject({ platform: 'wordpress', text: content!.blogPost!.title, status: 'draft' });
    expect(post.content).toMatch(/^<p>/);
    // Its link to the episode is public (no YouTube here: the episode's sound in the podcast feed's
    // bucket), never the private Drive file.
    expect(post.content).toContain('/storage/v1/object/public/podcast-feeds/');
    expect(post.content).not.toMatch(/drive\.google\.com|_sandbox\/google\/files/);
    for (const topic of SPEECH_TOPICS) expect(post.content?.toLowerCase()).toContain(topic);

    // The app reads it: the owner through the api, nobody else.
    const answer = await contentOf(client, episode.id);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      episodeId: episode.id, status: 'delivered',
      content: { showNotes: { keywords: notes.keywords }, blogPost: { wordpress: { status: 'draft', postId: expect.any(Number) } } },
    });
    const other = await signIn(await createUser('onboarded'));
    expect((await contentOf(other.client, episode.id)).status).toBe(404);
    expect((await contentOf(client, 'not-an-id')).status).toBe(404);
  }, 300_000);

  it('writes offline when the writing engine refuses, and says why on the episode', async () => {
    // The script's gardening part (about 20 s) under a file name for a title: the offline engine suggests one.
    const opening = SPEECH_SCRIPT.split(/(?<=\.) /).slice(0, 8).join(' ');
    const { user, client } = await readySubscriber(media, 'starter');
    await setLanguage(user, 'en');
    const show = `Refused Show ${user.id.slice(0, 8)}`;
    await setPodcast(user, show, 'Sam Host');
    // Refused twice rating the clips' moments (the rules choose them), twice writing.
    expect((await chatBehaviour({ mode: 'refusal', count: 4, match: show })).status).toBe(200);
    const episode = await submit(client, user, { title: '', addLogo: false, addIntroOutro: false }, episodeWith({ wav: spokenWav(opening) }, { tail: 2 }));
    const row = (await waitFor(client, episode.id, finished, 240_000)) as ProcessingRow & { content: EpisodeContentAnswer['content'] };
    expect(row).toMatchObject({ status: 'delivered', failure_reason: null });
    expect(row.content?.problems).toEqual([
      {
        stage: 'writing',
        reason: `The writing engine (gpt-4o-mini) declined to write ("I'm sorry, I can't help with that request."), twice: the titles, show notes, blog post and clip texts were written offline from the episode's own sentences instead.`,
      },
    ]);
    // The offline engine's texts: no stop word among the keywords, a title that says nothing twice.
    const notes = row.content!.showNotes!;
    expect(notes.summary).not.toMatch(/^In this episode/);
    expect(notes.keywords.length).toBeGreaterThan(0);
    for (const keyword of notes.keywords) for (const word of keyword.split(' ')) expect(stopwordsOf('en').has(word), keyword).toBe(false);
    const { data: named } = await client.from('episodes').select('title, title_confirmed').eq('id', episode.id).single();
    expect(named?.title_confirmed).toBe(false);
    for (const title of [named?.title ?? '', row.content!.blogPost!.title]) expect(repeatsItself(title), title).toBe(false);
    expect(named?.title).toBe(row.content?.titleSuggestions?.[0]);
    // What the four refused requests cost is recorded, with the fallback.
    expect(await writingUsage(row.id)).toEqual([expect.objectContaining({ engine: 'openai gpt-4o-mini', requests: 4, fell_back: true })]);
  }, 300_000);

  it('delivers an audio-only episode as an audiogram: the episode and its clips show a waveform that moves with the sound, with words', async () => {
    const { user, client, driveToken } = await readySubscriber(media, 'starter', { language: 'en' });
    const episode = await submit(client, user, { addIntroOutro: false, title: 'Audio Only' }, audioOnlyEpisode(spokenWav()));
    const row = (await waitFor(client, episode.id, finished, 240_000)) as ProcessingRow & { content: EpisodeContentAnswer['content'] };
    expect(row).toMatchObject({ status: 'delivered', failure_reason: null });
    expect(row.content?.transcript).toMatchObject({ engine: 'pocketsphinx' });
    expect(row.outputs.find((o) => o.kind === 'episode')).toMatchObject({ width: 1280, height: 720 });
    const clip = row.outputs.find((o) => o.kind === 'clip');
    // 9:16, at the tests' clip height.
    expect(clip!.width / clip!.height).toBeCloseTo(9 / 16, 2);
    // Two moments of the clip a second apart: the waveform's band differs, the artwork above it does not.
    const file = await downloadFromDrive(dir, clip!.driveFileId, driveToken, 'audiogram-clip.mp4');
    const frame = (at: number) =>
      spawnSync(currentMediaTools().ffmpeg, ['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1', '-vf', 'scale=108:192,format=gray', '-f', 'rawvideo', '-']).stdout;
    const [a, b] = [frame(2), frame(3)];
    const rowDiff = (y: number) => Array.from({ length: 108 }, (_, x) => Math.abs(a[y * 108 + x] - b[y * 108 + x])).reduce((sum, d) => sum + d, 0) / 108;
    const changed = Array.from({ length: 192 }, (_, y) => y).filter((y) => rowDiff(y) > 8);
    expect(changed.length).toBeGreaterThan(0);
    console.log(`audiogram clip: rows that changed in a second ${changed[0]}-${changed.at(-1)} of 192`);
  }, 300_000);

  it("transcribes through OpenAI's SDK against the sandbox, which answers in the API's own shapes", async () => {
    // The first sentences only (the sandbox recognises with pocketsphinx too: the whole script is the test above).
    const source = episodeWith({ wav: spokenWav() });
    const engine = openaiEngine({ apiKey: SANDBOX_OPENAI_API_KEY, baseUrl: `${config.urls.sandbox}/v1`, model: 'whisper-1' });
    expect(engine.recognises('ja')).toBe(true);
    const transcript = await engine.transcribe({ source, start: 0, end: 12, language: 'en', vocabulary: ['Garden Hour', 'Sam Host'], workDir: dir });
    // The vocabulary went as Whisper's prompt.
    const asked = ((await (await fetch(`${config.urls.sandbox}/_sandbox/openai/transcriptions`)).json()) as { requests: { prompt: string | null }[] }).requests;
    expect(asked.map((r) => r.prompt)).toContain('Garden Hour, Sam Host.');
    expect(transcript).toMatchObject({ engine: 'openai whisper-1', language: 'en', durationSeconds: 12 });
    expect(transcript.words.length).toBeGreaterThan(10);
    expect(transcript.words.map((w) => w.text)).toEqual(expect.arrayContaining(['garden']));
    for (const [i, word] of transcript.words.entries()) {
      expect(word.end).toBeGreaterThan(word.start);
      expect(word.end).toBeLessThanOrEqual(12.05);
      if (i > 0) expect(word.start).toBeGreaterThanOrEqual(transcript.words[i - 1].end);
    }
    // Segments are the sentences: punctuated, covering every word once, in order.
    expect(transcript.sentences.every((s) => s.text.endsWith('.'))).toBe(true);
    expect(transcript.sentences.map((s) => [s.firstWord, s.endWord]).flat()).toEqual([0, ...transcript.sentences.slice(0, -1).flatMap((s) => [s.endWord, s.endWord]), transcript.words.length]);
    // A wrong key is refused as OpenAI refuses it.
    const refused = openaiEngine({ apiKey: 'sk-wrong', baseUrl: `${config.urls.sandbox}/v1`, model: 'whisper-1' });
    await expect(refused.transcribe({ source, start: 0, end: 2, language: 'en', workDir: dir })).rejects.toThrow(/Incorrect API key/);
  }, 120_000);

  it('delivers silent, music-only and unsupported-language episodes with their clips and the reason there are no words', async () => {
    // Short episodes (10 s; the speech's first three sentences): each still gets its clips, and the
    // time goes on what they show, not on rendering length.
    const opening = SPEECH_SCRIPT.split(/(?<=\.) /).slice(0, 3).join(' ');
    const cases = [
      { audio: null, language: 'en', reason: contentReasons.noSpeech },
      { audio: { lavfi: 'aevalsrc=0.25*sin(2*PI*220*t)*(1+0.5*sin(2*PI*2*t))+0.2*sin(2*PI*277*t)+0.2*sin(2*PI*330*t):s=16000', seconds: 10 }, language: 'en', reason: contentReasons.noSpeech },
      { audio: { wav: spokenWav(opening) }, language: 'ja', reason: contentReasons.language('ja', 'pocketsphinx') },
    ];
    await Promise.all(
      cases.map(async ({ audio, language, reason }) => {
        const { user, client } = await readySubscriber(media, 'starter');
        await setLanguage(user, language);
        const episode = await submit(client, user, { addLogo: false, addIntroOutro: false }, episodeWith(audio, { seconds: 10 }));
        const row = (await waitFor(client, episode.id, finished, 240_000)) as ProcessingRow & { content: EpisodeContentAnswer['content'] };
        expect(row).toMatchObject({ status: 'delivered', failure_reason: null });
        expect(row.outputs.filter((o) => o.kind === 'episode')).toHaveLength(1);
        expect(row.outputs.filter((o) => o.kind === 'clip').length).toBeGreaterThan(0);
        expect(row.outputs.filter((o) => !['episode', 'clip'].includes(o.kind))).toEqual([]);
        expect(row.content).toEqual({ transcript: null, showNotes: null, blogPost: null, problems: [{ stage: 'transcript', reason }] });
      }),
    );
  }, 300_000);
});
