// Back on the dashboard from the billing portal's plan change (`?plan_changed_from=<old tier>`):
// Stripe's webhook may land after the redirect, so wait up to 10 s for the account to show
// another tier (an upgrade, at once) or a change scheduled for the period's end (a downgrade),
// then reload the account, the episode stats (limit, tier) and the scheduled change, say which,
// and drop the marker from the address. The app layer owns it: it refreshes data of two features.
import { formatChangeDay, PLAN_CHANGED_FROM_PARAM, planTitle } from '@domain/plans';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { scheduledPlanChangeQuery, type ScheduledPlanChange } from '@/features/billing/api/get-scheduled-plan-change';
import { texts as billingTexts } from '@/features/billing/texts';
import { currentAccountQuery } from '@/lib/current-account';
import { wait } from '@/lib/delays';
import { queryKeys } from '@/lib/query-keys';
import { notify } from '@/lib/toast';

const POLLS = 10;

export function usePlanChangeReturn(): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const started = useRef(false);
  const from = new URLSearchParams(location.search).get(PLAN_CHANGED_FROM_PARAM);

  useEffect(() => {
    if (from === null || started.current) return;
    started.current = true;
    void (async () => {
      let tier: string | null | undefined = from;
      let scheduled: ScheduledPlanChange | null = null;
      for (let i = 0; i < POLLS && tier === from && !scheduled; i++) {
        if (i > 0) await wait(1000);
        const account = await queryClient.fetchQuery({ ...currentAccountQuery, staleTime: 0 }).catch(() => null);
        tier = account?.subscriptionTier;
        if (account && tier === from) {
          scheduled = await queryClient.fetchQuery({ ...scheduledPlanChangeQuery(account.id), staleTime: 0 }).catch(() => null);
        }
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.account }),
        queryClient.invalidateQueries({ queryKey: queryKeys.episodes.stats }),
        queryClient.invalidateQueries({ queryKey: queryKeys.scheduledPlanChange }),
      ]);
      if (tier && tier !== from) notify.success(billingTexts.planChanged(planTitle(tier)));
      else if (scheduled) notify.success(billingTexts.planChangeScheduled(planTitle(scheduled.tier), formatChangeDay(scheduled.at)));
      const params = new URLSearchParams(location.search);
      params.delete(PLAN_CHANGED_FROM_PARAM);
      const search = params.toString();
      navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
    })();
  }, [from, queryClient, navigate, location]);
}
