// What the monthly limit offers: a bigger plan through the billing portal, or on the largest plan
// (nothing to upgrade to) one more episode this month through Checkout, or a word with sales about
// Enterprise (issue 43, item 4).
import { isHighestPlan } from '@domain/plans';
import { errorMessage } from '@/lib/api-client';
import { useCurrentAccount } from '@/lib/current-account';
import { salesEmail } from '@/lib/external-links';
import { notify } from '@/lib/toast';
import { useBuyExtraEpisode } from '../api/buy-extra-episode';
import { texts } from '../texts';
import { UpgradePlanButton } from './upgrade-plan-button';

export function MonthlyLimitActions() {
  const { data: account } = useCurrentAccount();
  const buy = useBuyExtraEpisode();
  if (!isHighestPlan(account?.subscriptionTier)) return <UpgradePlanButton />;
  const busy = buy.isPending || buy.isSuccess;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className="btn btn-sm btn-primary"
        disabled={busy}
        onClick={() => buy.mutate(undefined, { onError: (error) => notify.error(texts.extraEpisodeFailedTitle, { description: errorMessage(error, texts.checkoutFailed) }) })}
      >
        {busy ? texts.redirecting : texts.buyExtraEpisode}
      </button>
      <a className="btn btn-sm btn-outline" href={`mailto:${salesEmail}?subject=${encodeURIComponent(texts.enterpriseSubject)}`}>
        {texts.contactSales}
      </a>
    </div>
  );
}
