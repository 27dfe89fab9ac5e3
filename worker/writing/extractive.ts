// The offline writing engine: everything from the transcript's own sentences, with no service
// (show-notes.ts, blog-post.ts, clip-copy.ts). The default, and what writes when the configured
// engine cannot.
import { extractiveArticle } from '../content/blog-post.ts';
import { clipCopy, episodeTitleFromWords } from '../content/clip-copy.ts';
import { extractiveNotes } from '../content/show-notes.ts';
import { clipSentenceRange, titleOf, type WritingEngine } from './writing.ts';

export const extractiveEngine: WritingEngine = {
  name: 'extractive',
  async write({ transcript, at, episode, clips }) {
    const { notes, sections } = extractiveNotes(transcript, at);
    const suggestion = episodeTitleFromWords(notes.keywords);
    const titles = suggestion ? [suggestion] : [];
    const title = titleOf(episode, titles);
    return {
      engine: 'extractive',
      titles,
      notes,
      article: extractiveArticle({ episodeTitle: title, titleGiven: episode.titleConfirmed, notes, sections, transcript }),
      clips: clips.map((clip) => {
        const { first, end } = clipSentenceRange(transcript, clip);
        return clipCopy(transcript.sentences.slice(first, end).map((s) => s.text), notes.keywords, title);
      }),
    };
  },
};
