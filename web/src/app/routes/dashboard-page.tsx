// The dashboard composes the features' panels (the app layer is the only place that imports
// several features). Each panel owns its data and texts.
import { ConnectionsPanel } from '@/features/connections/components/connections-panel';
import { ProfileCard } from '@/features/onboarding/components/profile-card';
import { WelcomeModal } from '@/features/onboarding/components/welcome-modal';
import { useCurrentAccount } from '@/lib/current-account';

export default function DashboardPage() {
  const { data: account } = useCurrentAccount();
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8">
      <div>
        <h1 className="text-3xl font-bold">Dashboard</h1>
        <p className="mt-1">Welcome back{account?.firstName ? `, ${account.firstName}` : ''}.</p>
      </div>
      <ConnectionsPanel />
      <ProfileCard />
      <WelcomeModal />
    </main>
  );
}
