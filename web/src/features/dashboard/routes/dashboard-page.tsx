// The dashboard's entry point. Its panels (stats, connections, episodes, profile) are built in
// their own issues; routing by state already lands here.
import { useCurrentAccount } from '@/lib/current-account';

export default function DashboardPage() {
  const { data: account } = useCurrentAccount();
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-bold">Dashboard</h1>
      <p className="mt-2">Welcome back{account?.firstName ? `, ${account.firstName}` : ''}.</p>
    </main>
  );
}
