// What every prompt says of the podcast and the episode, in words (the profile's podcast details,
// the episode's title and guests), and the language the texts are written in.
import { podcastLanguages } from '../../../supabase/functions/_shared/domain/podcast-languages.ts';
import type { WritingInput } from '../writing.ts';

export interface PromptContext {
  language: string;
  podcast: string;
  episode: string;
}

export function promptContext(input: Pick<WritingInput, 'language' | 'podcast' | 'episode'>): PromptContext {
  const { podcast, episode } = input;
  const code = input.language.toLowerCase().split(/[-_]/)[0];
  const language = podcastLanguages.find((l) => l.value === code)?.label ?? input.language;
  const podcastLines = [
    `- Title: ${podcast.title ?? '(not given)'}`,
    ...(podcast.author ? [`- Host: ${podcast.author}`] : []),
    ...(podcast.description ? [`- About: ${podcast.description.replace(/\s+/g, ' ').trim().slice(0, 1500)}`] : []),
    ...(podcast.keywords ? [`- Keywords: ${podcast.keywords}`] : []),
  ];
  const episodeLines = [
    episode.titleConfirmed ? `- Title (the host's): ${episode.title}` : `- Working title (a file name: suggest better ones): ${episode.title}`,
    ...(episode.guests.length ? [`- Guests: ${episode.guests.join(', ')}`] : []),
  ];
  return { language, podcast: podcastLines.join('\n'), episode: episodeLines.join('\n') };
}
