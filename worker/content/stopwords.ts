// Words that say nothing about a topic, for keywords and lexical cohesion, per podcast language:
// stopwords-iso's list of each language (the onboarding's twelve all have one), and for English
// also the fillers of speech and the words every podcast says of itself (after the common
// SMART/NLTK lists).
import stopwordsIso from 'stopwords-iso/stopwords-iso.json' with { type: 'json' };

const SPEECH_ENGLISH = `a about above after again against all also am an and any are aren't as at be because been before being below between
  both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each even ever every few for
  from further get gets getting go goes going gone got had hadn't has hasn't have haven't having he he'd he'll he's her here
  here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself just let's like
  make makes made many may me might more most much must mustn't my myself need needs no nor not now of off on once one only
  or other ought our ours ourselves out over own really right same say says said see shan't she she'd she'll she's should
  shouldn't so some such take than that that's the their theirs them themselves then there there's these they they'd
  they'll they're they've thing things think this those though through to today too under until up upon us very want was
  wasn't way we we'd we'll we're we've well were weren't what what's when when's where where's which while who who's whom
  why why's will with won't would wouldn't yeah yes you you'd you'll you're you've your yours yourself yourselves okay ok
  um uh oh ah hmm mean know lot lots kind sort actually basically literally maybe still back something anything everything
  nothing around always never often good great new first last next two three let us come came talk talking thank thanks
  welcome today's show episode podcast listening gonna wanna gotta stuff guys week weeks`.split(/\s+/);

/** English: stopwords-iso's list, the fillers of speech and the words every podcast says of itself. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set([...stopwordsIso.en, ...SPEECH_ENGLISH]);

const byLanguage = new Map<string, ReadonlySet<string>>([['en', ENGLISH_STOPWORDS]]);

/** The stop words of a language (ISO 639-1 or BCP 47: `en`, `en-US`); none for a language without a list. */
export function stopwordsOf(language: string): ReadonlySet<string> {
  const code = language.toLowerCase().split(/[-_]/)[0];
  let words = byLanguage.get(code);
  if (!words) {
    const list = (stopwordsIso as Record<string, string[] | undefined>)[code] ?? [];
    words = new Set(list.map((w) => w.toLowerCase()));
    byLanguage.set(code, words);
  }
  return words;
}
