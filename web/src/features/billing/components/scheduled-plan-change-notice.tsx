// Says which plan the subscription changes to at the end of the period, and when; nothing when
// no change is scheduled.
import { formatChangeDay, planTitle } from '@domain/plans';
import { useCurrentAccount } from '@/lib/current-account';
import { useScheduledPlanChange } from '../api/get-scheduled-plan-change';
import { texts } from '../texts';

export function ScheduledPlanChangeNotice() {
  const { data: account } = useCurrentAccount();
  const { data: change } = useScheduledPlanChange(account?.id);
  if (!change || account?.subscriptionStatus !== 'active') return null;
  return (
    <p role="status" className="alert alert-info" data-testid="scheduled-plan-change">
      {texts.planChangeScheduled(planTitle(change.tier), formatChangeDay(change.at))}
    </p>
  );
}
