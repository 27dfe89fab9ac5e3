// The clips' texts from the chat engine's answer: each platform's post within its limit (the
// limits' one home is domain/episode-clips.ts; X counts CJK twice), the WordPress post built here
// as blocks of escaped text, and the clip's own words where the answer left it out.
import { PLATFORM_TEXT_LIMITS as LIMITS, xLength } from '../../../supabase/functions/_shared/domain/episode-clips.ts';
import type { ClipTexts } from '../../../supabase/functions/_shared/domain-server/episode-writing.ts';
import { clipCopy } from '../../content/clip-copy.ts';
import { htmlText } from '../../content/platform-text.ts';
import type { ClipsAnswer } from './answers.ts';
import { fitText, line } from './faithful.ts';

/** What the prompts tell the engine of the limits (the same numbers the texts are cut to). */
export const limitMarks = {
  titleLimit: String(LIMITS.title),
  youtubeTitleLimit: String(LIMITS.youtubeTitle),
  xLimit: String(LIMITS.x),
  linkedinLimit: String(LIMITS.linkedin),
};


export interface ClipWords {
  /** The clip's sentences, as said. */
  said: string[];
  episodeTitle: string;
  hashtags: string[];
  keywords: string[];
}

/** A clip's title and posts from the engine's answer for it; the offline copy when there is none. */
export function clipTexts(answer: ClipsAnswer['clips'][number] | undefined, words: ClipWords): ClipTexts | null {
  if (!answer) return clipCopy(words.said, words.keywords, words.episodeTitle);
  const title = line(answer.title, LIMITS.title) || line(words.said[0] ?? words.episodeTitle, LIMITS.title);
  const hook = line(answer.hook, 300);
  const quote = words.said.join(' ').replace(/\s+/g, ' ').trim();
  const from = `From "${words.episodeTitle}".`;
  const content = [
    ...(hook ? [`<!-- wp:paragraph -->\n<p>${htmlText(hook)}</p>\n<!-- /wp:paragraph -->`] : []),
    `<!-- wp:quote -->\n<blockquote class="wp-block-quote"><p>${htmlText(quote)}</p></blockquote>\n<!-- /wp:quote -->`,
    `<!-- wp:paragraph -->\n<p>${htmlText(from)} ${htmlText(words.hashtags.slice(0, 5).join(' '))}</p>\n<!-- /wp:paragraph -->`,
  ].join('\n');
  // The longer posts name the episode as the offline engine's do ('From "<title>".'), after the
  // engine's text: a renamed episode's posts follow its new title (private.rename_episode).
  const named = (text: string, limit: number, tail: string) => `${fitText(text, limit - [...tail].length - 2)}\n\n${tail}`;
  return {
    title,
    posts: {
      youtube: {
        title: line(answer.youtubeTitle, LIMITS.youtubeTitle) || line(title, LIMITS.youtubeTitle),
        // A Short is found by its #Shorts tag.
        description: named(answer.youtubeDescription || hook, LIMITS.youtubeDescription, `${from} #Shorts`),
      },
      x: { text: fitText(answer.x || hook || title, LIMITS.x, xLength) },
      linkedin: { text: named(answer.linkedin || hook || title, LIMITS.linkedin, from) },
      wordpress: { title, content },
    },
  };
}
