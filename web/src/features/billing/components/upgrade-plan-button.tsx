// The limit banner's way out: the billing portal opened on choosing a bigger plan. Not shown on
// the largest plan, which has nothing to upgrade to.
import { PLAN_TIERS } from '@domain/plans';
import { useCurrentAccount } from '@/lib/current-account';
import { notify } from '@/lib/toast';
import { useChangePlan } from '../api/create-plan-change-session';
import { texts } from '../texts';

export function UpgradePlanButton() {
  const { data: account } = useCurrentAccount();
  const change = useChangePlan();
  if (account?.subscriptionTier === PLAN_TIERS.at(-1)) return null;
  const busy = change.isPending || change.isSuccess;
  return (
    <button
      type="button"
      className="btn btn-sm btn-primary"
      disabled={busy}
      onClick={() => change.mutate(undefined, { onError: () => notify.error(texts.portalFailed) })}
    >
      {busy ? texts.redirecting : texts.upgradePlan}
    </button>
  );
}
