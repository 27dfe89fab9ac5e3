// /episodes: every episode of the caller's, newest first, each linking to its page.
import { timeAgo } from '@domain/relative-time';
import { Link } from 'react-router-dom';
import { ListState, listStatus } from '@/components/list-state';
import { useEpisodes } from '@/features/episodes/api/get-episodes';
import { ProcessingLine } from '@/features/episodes/components/recent-episodes';
import { episodeTexts, episodePageTexts as t } from '@/features/episodes/texts';

export default function EpisodeListPage() {
  const episodes = useEpisodes();
  return (
    <main className="mx-auto flex w-full max-w-4xl flex-col gap-4 px-4 py-8">
      <Link className="link self-start" to="/dashboard">
        {t.backToDashboard}
      </Link>
      <h1 className="text-3xl font-bold">{t.listTitle}</h1>
      <ListState
        status={listStatus(episodes, episodes.data?.length === 0)}
        texts={{ loading: episodeTexts.loading, failed: episodeTexts.loadFailed, empty: episodeTexts.noEpisodes }}
      >
        <ul className="flex flex-col divide-y divide-base-300 rounded-box border border-base-300 bg-base-100">
          {episodes.data?.map((episode) => (
            <li key={episode.id} className="flex flex-col gap-1 px-4 py-3">
              <span className="flex flex-wrap items-center justify-between gap-2">
                <Link className="link font-medium break-all" to={`/episodes/${episode.id}`}>
                  {episode.title}
                </Link>
                <span className="text-sm text-base-content/70">
                  {episode.submittedAt ? timeAgo(new Date(episode.submittedAt)) : episodeTexts.dateUnknown}
                </span>
              </span>
              {episode.processing && <ProcessingLine title={episode.title} state={episode.processing} />}
            </li>
          ))}
        </ul>
      </ListState>
    </main>
  );
}
