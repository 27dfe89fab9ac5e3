// The onboarding entry point. The configuration form is built in its own issue; routing by
// state already lands here.
import { useCurrentAccount } from '@/lib/current-account';

export default function OnboardingPage() {
  const { data: account } = useCurrentAccount();
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-bold">Welcome to Castloop{account?.firstName ? `, ${account.firstName}` : ''}!</h1>
      <p className="mt-2">Let's get your podcast set up.</p>
    </main>
  );
}
