// The dashboard's podcast feed panel (issue 44): where the hosting block was the only word on
// hosting, the feed's address with a copy button, whether it meets Apple's requirements (and what
// Apple would refuse, in words), and how to submit it to Apple Podcasts and Spotify. Nothing
// before onboarding completes (the feed is made then).
import type { PodcastFeed } from '@domain/podcast-feed';
import { Panel } from '@/components/panel';
import { notify } from '@/lib/toast';
import { usePodcastFeed } from '../api/get-podcast-feed';
import { podcastFeedTexts as t } from '../texts';

async function copyAddress(address: string, clipboard: Pick<Clipboard, 'writeText'> | undefined = navigator.clipboard): Promise<void> {
  try {
    if (!clipboard) throw new Error('no clipboard');
    await clipboard.writeText(address);
    notify.success(t.copiedTitle, { description: t.copied });
  } catch {
    notify.info(t.copyFailedTitle, { description: t.copyFailed });
  }
}

function FeedState({ feed }: { feed: PodcastFeed }) {
  if (feed.status === 'building') return <p role="status">{t.building}</p>;
  if (feed.status === 'valid') return <p role="status" className="text-green-800">{t.valid}</p>;
  return (
    <div role="alert" className="rounded-box border border-orange-300 bg-orange-50 p-3 text-orange-900">
      <p className="font-semibold">{t.invalid}</p>
      <ul className="list-disc pl-5 text-sm">
        {feed.problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
      <p className="text-sm">{t.fixHint}</p>
    </div>
  );
}

function Steps({ title, steps }: { title: string; steps: readonly string[] }) {
  return (
    <div>
      <h3 className="font-semibold">{title}</h3>
      <ol className="list-decimal pl-5 text-sm">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </div>
  );
}

export function PodcastFeedPanel() {
  const { data, isError } = usePodcastFeed();
  if (isError) return <p role="alert">{t.loadFailed}</p>;
  const feed = data?.feed;
  if (!feed) return null;
  return (
    <Panel titleId="podcast-feed-title" title={t.title} className="bg-base-100 shadow">
      <p className="text-sm text-base-content/70">{t.intro}</p>
      <FeedState feed={feed} />
      <div className="flex flex-wrap items-center gap-2">
        <input className="input input-bordered min-w-0 flex-1 font-mono text-sm" readOnly value={feed.feedUrl} aria-label={t.addressLabel} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="btn" onClick={() => void copyAddress(feed.feedUrl)}>
          {t.copy}
        </button>
      </div>
      <p className="text-sm">{t.episodes(feed.episodeCount)}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Steps title={t.appleTitle} steps={t.appleSteps} />
        <Steps title={t.spotifyTitle} steps={t.spotifySteps} />
      </div>
      {feed.ownerEmail && <p className="text-sm text-base-content/70">{t.ownerEmail(feed.ownerEmail)}</p>}
    </Panel>
  );
}
