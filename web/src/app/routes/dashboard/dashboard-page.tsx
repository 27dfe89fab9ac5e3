// The dashboard composes the features' panels (the app layer is the only place that imports
// several features). Each panel owns its data and texts.
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { ScheduledPlanChangeNotice } from '@/features/billing/components/scheduled-plan-change-notice';
import { MonthlyLimitActions } from '@/features/billing/components/monthly-limit-actions';
import { ConnectionsPanel } from '@/features/connections/components/connections-panel';
import { useEpisodesInProgress } from '@/features/episodes/api/get-episodes';
import { SubmitEpisodePanel } from '@/features/episodes/components/submit-episode-panel';
import { SummaryCards } from '@/features/episodes/components/summary-cards';
import { ProfileCard } from '@/features/onboarding/components/profile-card';
import { WelcomeModal } from '@/features/onboarding/components/welcome-modal';
import { PodcastFeedPanel } from '@/features/podcast-feed/components/podcast-feed-panel';
import { useCurrentAccount } from '@/lib/current-account';
import { delays } from '@/lib/delays';
import { notify } from '@/lib/toast';
import { QuickActions } from './quick-actions';
import { dashboardTexts as t } from './texts';
import { useExtraEpisodeReturn } from './use-extra-episode-return';
import { usePlanChangeReturn } from './use-plan-change-return';

export default function DashboardPage() {
  const { data: account } = useCurrentAccount();
  const navigate = useNavigate();
  const episodesInProgress = useEpisodesInProgress();
  usePlanChangeReturn();
  useExtraEpisodeReturn();

  // A logged-out visit: 'Unauthorized', then / after 500 ms (spec section 2).
  useEffect(() => {
    if (account) return;
    notify.error(t.unauthorized);
    const timer = setTimeout(() => navigate('/', { replace: true }), delays.unauthorizedDashboardMs);
    return () => clearTimeout(timer);
  }, [account, navigate]);
  if (!account) return null;

  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8">
      <div>
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p className="mt-1">{t.welcome(account.firstName)}</p>
      </div>

      <ScheduledPlanChangeNotice />
      <SummaryCards />
      <ConnectionsPanel episodesInProgress={episodesInProgress} />
      <SubmitEpisodePanel userId={account.id} upgradeAction={<MonthlyLimitActions />} />
      <PodcastFeedPanel />
      <ProfileCard />
      <QuickActions />
      <WelcomeModal />
    </main>
  );
}
