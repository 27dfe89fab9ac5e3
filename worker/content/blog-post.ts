// The blog post: an article (a title, an introduction, headed sections of paragraphs, the episode's
// quotes) as Markdown, with a link to the episode. Either writing engine writes the article; this
// file makes its Markdown (kept in Drive, shown on the episode page and sent to WordPress as HTML
// by domain/markdown.ts), and the offline engine's article from the transcript and its notes.
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import type { ShowNotes } from '../../supabase/functions/_shared/domain/episode-content.ts';
import type { BlogArticle } from '../../supabase/functions/_shared/domain-server/episode-writing.ts';
import type { TopicSection } from './show-notes.ts';
import { listTitle } from './show-notes.ts';
import { tokens } from './words.ts';

export interface BlogPost {
  title: string;
  markdown: string;
}

/** Sentences a section keeps at most, the longest first (then put back in order). */
const SECTION_SENTENCES = 4;

// Markdown punctuation in spoken or written words is text, not formatting.
const escapeMarkdown = (text: string) => text.replace(/([\\`*_[\]<>#|])/g, '\\$1');
/** A line break inside a paragraph would end it, or start a heading or a quote: one line each. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The article as Markdown, with the episode's link when there is one to give. */
export function blogPost(article: BlogArticle, link: string | null): BlogPost {
  const title = oneLine(article.title);
  const markdown = [
    `# ${escapeMarkdown(title)}`,
    '',
    ...(article.introduction ? [escapeMarkdown(oneLine(article.introduction)), ''] : []),
    ...article.sections.flatMap((s) => [`## ${escapeMarkdown(oneLine(s.heading))}`, '', ...s.paragraphs.filter((p) => p.trim()).flatMap((p) => [escapeMarkdown(oneLine(p)), ''])]),
    ...(article.quotes.length ? ['## Key quotes', '', ...article.quotes.flatMap((q) => [`> ${escapeMarkdown(oneLine(q.text))} (${q.time})`, ''])] : []),
    ...(link ? [`[Watch the full episode](${link})`, ''] : []),
  ].join('\n');
  return { title, markdown };
}

/**
 * The episode's title with its topics, unless the title already says them: a topic whose words
 * are all in the title is left out ("Country" stays "Country", never "Country: Country").
 */
export function articleTitle(episodeTitle: string, keywords: readonly string[]): string {
  const said = new Set(tokens(episodeTitle).map((w) => w.replace(/s$/, '')));
  const news = keywords.filter((k) => tokens(k).some((w) => !said.has(w.replace(/s$/, '')))).slice(0, 3);
  return news.length ? `${episodeTitle}: ${listTitle(news)}` : episodeTitle;
}

/**
 * The offline engine's article: the summary, then a section per topic of its longest sentences,
 * then the quotes. Its title is the episode's, with its topics when the subscriber named it (a
 * title made of the keywords already says them).
 */
export function extractiveArticle(input: {
  episodeTitle: string;
  titleGiven: boolean;
  notes: ShowNotes;
  sections: readonly TopicSection[];
  transcript: Pick<Transcript, 'sentences'>;
}): BlogArticle {
  const { notes, transcript } = input;
  const chapterAt = new Map(notes.chapters.map((c) => [c.firstSentence, c]));
  const sections = input.sections.map((section) => {
    const own = transcript.sentences.slice(section.firstSentence, section.endSentence);
    const kept = own
      .map((s, i) => ({ s, i }))
      .sort((a, b) => b.s.text.length - a.s.text.length)
      .slice(0, SECTION_SENTENCES)
      .sort((a, b) => a.i - b.i)
      .map(({ s }) => s.text);
    const chapter = chapterAt.get(section.firstSentence);
    return { heading: chapter ? `${section.title} (${chapter.time})` : section.title, paragraphs: [kept.join(' ')] };
  });
  const title = input.titleGiven ? articleTitle(input.episodeTitle, notes.keywords) : input.episodeTitle;
  return { title, introduction: notes.summary, sections, quotes: notes.quotes };
}
