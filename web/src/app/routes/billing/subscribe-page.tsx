import { planTitle } from '@domain/plans';
import { useNavigate } from 'react-router-dom';
import { ErrorAlert } from '@/components/alert';
import { FullPageSpinner } from '@/components/spinner';
import { useCurrentAccount } from '@/lib/current-account';
import { notify } from '@/lib/toast';
import { useChangePlan } from '@/features/billing/api/create-plan-change-session';
import { useOpenPortal } from '@/features/billing/api/open-portal';
import { useStartCheckout } from '@/features/billing/api/start-checkout';
import { usePlans } from '@/features/billing/api/get-plans';
import { PlanCard } from '@/features/billing/components/plan-card';
import { ScheduledPlanChangeNotice } from '@/features/billing/components/scheduled-plan-change-notice';
import { texts } from '@/features/billing/texts';
import { useDeferredAnswer } from '@/lib/use-deferred-answer';

export default function SubscribePage() {
  const navigate = useNavigate();
  const { data: account } = useCurrentAccount();
  const plans = useDeferredAnswer(usePlans());
  const checkout = useStartCheckout();
  const portal = useOpenPortal();
  const planChange = useChangePlan();
  const isActive = account?.subscriptionStatus === 'active';
  const busy =
    checkout.isPending || checkout.isSuccess || portal.isPending || portal.isSuccess || planChange.isPending || planChange.isSuccess;

  const choose = (tier: string) =>
    checkout.mutate(tier, { onError: () => notify.error(texts.checkoutFailed) });
  const openPortal = () => portal.mutate(undefined, { onError: () => notify.error(texts.portalFailed) });
  const changeTo = (tier: string) => planChange.mutate(tier, { onError: () => notify.error(texts.portalFailed) });

  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{texts.title}</h1>
          <p className="mt-1 text-base-content/70">{texts.subtitle}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {isActive && (
            <button type="button" className="btn btn-primary" onClick={() => navigate('/')}>
              {texts.backToDashboard}
            </button>
          )}
          {/* The spec: shown whenever the user has a payment customer, beside the active card's 'Manage Billing'. */}
          {account?.stripeCustomerId && (
            <button type="button" className="btn btn-outline" disabled={busy} onClick={openPortal}>
              {texts.manageYourBilling}
            </button>
          )}
        </div>
      </div>

      {checkout.isError && <ErrorAlert title={texts.checkoutFailed} message={checkout.error.message} />}
      {portal.isError && <ErrorAlert title={texts.portalFailed} message={portal.error.message} />}
      {planChange.isError && <ErrorAlert title={texts.portalFailed} message={planChange.error.message} />}

      {isActive && (
        <section className="card bg-success/10" aria-labelledby="active-subscription-title">
          <div className="card-body flex-row flex-wrap items-center justify-between gap-4">
            <div>
              <h2 id="active-subscription-title" className="card-title">
                {texts.activeTitle}
              </h2>
              <p>{texts.activeBody(planTitle(account?.subscriptionTier))}</p>
              <ScheduledPlanChangeNotice />
            </div>
            <button type="button" className="btn btn-outline" disabled={busy} onClick={openPortal}>
              {texts.manageBilling}
            </button>
          </div>
        </section>
      )}

      {plans.isPending && <FullPageSpinner label={texts.loadingPlans} />}
      {plans.isError && (
        <div className="flex flex-col items-start gap-2">
          <ErrorAlert title={texts.plansFailed} message={plans.error.message} />
          <button type="button" className="btn" onClick={() => void plans.refetch()}>
            {texts.retry}
          </button>
        </div>
      )}
      {plans.data && (
        <div className="grid gap-6 md:grid-cols-3">
          {plans.data.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              isCurrent={isActive && account?.subscriptionTier === plan.id}
              pending={(checkout.isPending && checkout.variables === plan.id) || (planChange.isPending && planChange.variables === plan.id)}
              disabled={busy}
              // A subscriber changes plan in the billing portal, opened on confirming this plan; a second checkout would bill twice.
              onChoose={isActive ? changeTo : choose}
              chooseLabel={isActive ? texts.changeTo : texts.choose}
            />
          ))}
        </div>
      )}

      {/* Under the plans once they are shown: above the loading spinner, the plans would push it away (a layout shift). */}
      {!plans.isPending && (
        <div className="text-center text-sm text-base-content/70">
          <p>{texts.priceIncrease}</p>
          <p>{texts.monthToMonth}</p>
        </div>
      )}
    </main>
  );
}
