// A blog post from the transcript and its show notes: a title, an introduction (the summary),
// one section per chapter (its most central sentences, in order), the key quotes, and a link to
// the episode. Kept in Drive as Markdown and sent to WordPress as HTML.
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import type { ShowNotes } from '../../supabase/functions/_shared/domain/episode-content.ts';
import { htmlText } from './platform-text.ts';
import { listTitle } from './show-notes.ts';

export interface BlogPost {
  title: string;
  html: string;
  markdown: string;
}

/** Sentences a chapter's section keeps at most, the most central first (then put back in order). */
const SECTION_SENTENCES = 4;

// Markdown punctuation in spoken words is text, not formatting.
const escapeMarkdown = (text: string) => text.replace(/([\\`*_[\]<>#|])/g, '\\$1');

export function blogPost(input: {
  episodeTitle: string;
  notes: ShowNotes;
  transcript: Pick<Transcript, 'sentences'>;
  /** The episode's address (its Drive file), or null when there is none to give. */
  link: string | null;
}): BlogPost {
  const { notes, transcript, link } = input;
  const title = notes.keywords.length ? `${input.episodeTitle}: ${listTitle(notes.keywords.slice(0, 3))}` : input.episodeTitle;
  const sections = notes.chapters.map((chapter) => {
    const own = transcript.sentences.slice(chapter.firstSentence, chapter.endSentence);
    // The longest sentences carry the most of what a chapter says when no rank is at hand.
    const kept = own
      .map((s, i) => ({ s, i }))
      .sort((a, b) => b.s.text.length - a.s.text.length)
      .slice(0, SECTION_SENTENCES)
      .sort((a, b) => a.i - b.i)
      .map(({ s }) => s.text);
    return { heading: `${chapter.title} (${chapter.time})`, text: kept.join(' ') };
  });
  const html = [
    `<p>${htmlText(notes.summary)}</p>`,
    ...sections.flatMap((s) => [`<h2>${htmlText(s.heading)}</h2>`, `<p>${htmlText(s.text)}</p>`]),
    ...(notes.quotes.length ? ['<h2>Key quotes</h2>', ...notes.quotes.map((q) => `<blockquote><p>${htmlText(q.text)}</p><cite>${q.time}</cite></blockquote>`)] : []),
    ...(link ? [`<p><a href="${htmlText(link)}">Watch the full episode</a></p>`] : []),
    ...(notes.keywords.length ? [`<p>Topics: ${htmlText(notes.keywords.join(', '))}</p>`] : []),
  ].join('\n');
  const markdown = [
    `# ${escapeMarkdown(title)}`,
    '',
    escapeMarkdown(notes.summary),
    '',
    ...sections.flatMap((s) => [`## ${escapeMarkdown(s.heading)}`, '', escapeMarkdown(s.text), '']),
    ...(notes.quotes.length ? ['## Key quotes', '', ...notes.quotes.flatMap((q) => [`> ${escapeMarkdown(q.text)} (${q.time})`, ''])] : []),
    ...(link ? [`[Watch the full episode](${link})`, ''] : []),
    ...(notes.keywords.length ? [`Topics: ${escapeMarkdown(notes.keywords.join(', '))}`, ''] : []),
  ].join('\n');
  return { title, html, markdown };
}
