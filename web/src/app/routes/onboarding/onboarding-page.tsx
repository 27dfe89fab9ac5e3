// /onboarding (spec section 2): the welcome heading and four cards; the last one hosts the
// configuration form in setup mode. Access (signed in, active, not onboarded) is decided by the
// app's access gate before this renders.
import { FullPageSpinner } from '@/components/spinner';
import { useCurrentAccount } from '@/lib/current-account';
import { communityUrl, introVideoFile, introVideoUrl } from '@/lib/external-links';
import type { ReactNode } from 'react';
import { Panel } from '@/components/panel';
import { useProfileRecord } from '@/lib/profile-record';
import { ConfigurationForm } from '@/features/onboarding/components/configuration-form';
import { texts } from '@/features/onboarding/texts';
import { useDeferredAnswer } from '@/lib/use-deferred-answer';

const t = texts.page;

/** A card of the page, its heading's id taken from its title. */
function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Panel titleId={`card-${title.replace(/\W+/g, '-').toLowerCase()}`} title={title} className="bg-base-100 shadow">
      {children}
    </Panel>
  );
}

export default function OnboardingPage() {
  const { data: account } = useCurrentAccount();
  const record = useDeferredAnswer(useProfileRecord());
  if (!account || record.isPending) return <FullPageSpinner />;
  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8">
      <div>
        <h1 className="text-3xl font-bold">{t.welcome(account.firstName)}</h1>
        <p className="mt-2">{t.intro}</p>
      </div>
      <div className="grid gap-6 md:grid-cols-3">
        <Card title={t.accountSetupTitle}>
          <ul className="flex flex-col gap-2">
            {t.accountSetupSteps.map((step) => (
              <li key={step} className="flex items-center gap-2">
                <span className="text-success" aria-hidden="true">
                  ✓
                </span>
                {step}
              </li>
            ))}
          </ul>
        </Card>
        <Card title={t.communityTitle}>
          <p>{t.communityBody}</p>
          <a className="btn btn-secondary" href={communityUrl} target="_blank" rel="noopener noreferrer">
            {t.communityButton} <span className="sr-only">{t.opensInNewTab}</span>
          </a>
        </Card>
        <Card title={t.introTitle}>
          <p>{t.introBody}</p>
          <div className="aspect-video w-full overflow-hidden rounded-box bg-base-200">
            {introVideoUrl ? (
              <iframe className="h-full w-full" src={introVideoUrl} title={t.introVideoTitle} allow="encrypted-media; picture-in-picture" allowFullScreen loading="lazy" />
            ) : (
              // The video the app ships, with its narration as captions (shown by default).
              <video className="h-full w-full" controls preload="metadata" aria-label={t.introVideoTitle} src={introVideoFile.video}>
                <track kind="captions" src={introVideoFile.captions} srcLang="en" label={t.introCaptions} default />
              </video>
            )}
          </div>
        </Card>
      </div>
      <Card title={t.profileTitle}>
        <p>{t.profileBody}</p>
        <ConfigurationForm mode="setup" account={account} record={record.data} />
      </Card>
    </main>
  );
}
