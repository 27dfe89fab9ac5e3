// The dashboard's three summary cards: Account Status, Setup Progress (green only when the
// onboarding form is completed and social accounts are connected, as the server says) and
// Episodes ('N / limit used', or 'N used (unlimited)' for enterprise).
import { planTitle } from '@domain/plans';
import { useCurrentAccount } from '@/lib/current-account';
import { useEpisodeStats } from '../api/get-episode-stats';
import { summaryTexts as t } from '../texts';

function Card({ title, children, tone = 'neutral' }: { title: string; children: React.ReactNode; tone?: 'neutral' | 'success' | 'warning' }) {
  const dot = tone === 'success' ? 'bg-green-600' : tone === 'warning' ? 'bg-amber-500' : 'bg-base-300';
  return (
    <section className="card bg-base-100 shadow" aria-label={title}>
      <div className="card-body gap-1">
        <h2 className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-base-content/70">
          <span className={`inline-block h-3 w-3 rounded-full ${dot}`} aria-hidden="true" />
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

export function SummaryCards() {
  const { data: account } = useCurrentAccount();
  const { data: stats } = useEpisodeStats();
  const onboarded = stats?.onboardingCompleted ?? account?.onboardingCompleted ?? false;
  const social = stats?.socialConnected ?? false;
  const setupDone = onboarded && social;
  const tier = stats?.subscriptionTier ?? account?.subscriptionTier ?? null;
  const count = stats?.thisMonth ?? 0;
  // The server decides: a plan without a monthly limit (enterprise) has limit null.
  const unlimited = stats?.limit === null;
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <Card title={t.accountStatus} tone={account?.subscriptionStatus === 'active' ? 'success' : 'warning'}>
        <p className="text-2xl font-bold">{account?.subscriptionStatus === 'active' ? t.active : t.inactive}</p>
        <p className="text-sm">{planTitle(account?.subscriptionTier)}</p>
      </Card>
      <Card title={t.setupProgress} tone={setupDone ? 'success' : 'warning'}>
        <p className="text-2xl font-bold" data-testid="setup-state">
          {setupDone ? t.setupComplete : t.setupIncomplete}
        </p>
        <ul className="text-sm">
          <li>{onboarded ? t.onboardingDone : t.onboardingMissing}</li>
          <li>{social ? t.socialDone : t.socialMissing}</li>
        </ul>
      </Card>
      <Card title={t.episodes}>
        <p className="text-2xl font-bold" data-testid="episodes-used">
          {unlimited ? t.usedUnlimited(count) : t.used(count, stats?.limit ?? 1)}
        </p>
        <p className="text-sm">
          {t.thisMonth} · {tier ? planTitle(tier) : t.defaultTier}
        </p>
        <p className="text-sm">{t.totalProcessed(stats?.total ?? 0)}</p>
      </Card>
    </div>
  );
}
