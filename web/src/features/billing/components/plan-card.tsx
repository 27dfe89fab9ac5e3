import { formatPrice } from '@domain/plans';
import type { Plan } from '../api/get-plans';
import { texts } from '../texts';

interface PlanCardProps {
  plan: Plan;
  isCurrent: boolean;
  pending: boolean;
  disabled: boolean;
  onChoose: (tier: string) => void;
  chooseLabel: (title: string) => string;
}

export function PlanCard({ plan, isCurrent, pending, disabled, onChoose, chooseLabel }: PlanCardProps) {
  const headingId = `plan-${plan.id}-title`;
  return (
    <article
      aria-labelledby={headingId}
      className={`card relative bg-base-100 shadow-xl ${plan.isPopular ? 'border-2 border-primary' : 'border border-base-300'}`}
    >
      {/* On the card's edge, so the popular card's price lines up with the others. */}
      {plan.isPopular && <span className="badge badge-primary absolute -top-3 left-1/2 -translate-x-1/2">{texts.mostPopular}</span>}
      <div className="card-body gap-4">
        <h2 id={headingId} className="card-title text-xl">
          {plan.title}
        </h2>
        <p className="text-base-content/70">{plan.description}</p>
        <p className="flex items-baseline gap-2">
          <span className="text-4xl font-bold">{formatPrice(plan.priceCents)}</span>
          <span>{texts.perMonth}</span>
          {plan.originalPriceCents !== null && (
            <s className="text-base-content/60" aria-label={`was ${formatPrice(plan.originalPriceCents)}`}>
              {formatPrice(plan.originalPriceCents)}
            </s>
          )}
        </p>
        <ul className="flex flex-col gap-1" aria-label={`${plan.title} features`}>
          {plan.features.map((feature) => (
            <li key={feature} className="flex gap-2">
              <span aria-hidden="true" className="text-success">✓</span>
              <span>
                <span className="sr-only">{texts.included}: </span>
                {feature}
              </span>
            </li>
          ))}
          {plan.unavailableFeatures.map((feature) => (
            <li key={feature} className="flex gap-2 text-base-content/60">
              <span aria-hidden="true">✗</span>
              <span className="line-through">
                <span className="sr-only">{texts.notIncluded}: </span>
                {feature}
              </span>
            </li>
          ))}
        </ul>
        <div className="card-actions mt-auto">
          {isCurrent ? (
            <span className="badge badge-success badge-lg">{texts.currentPlan}</span>
          ) : (
            <button
              type="button"
              className={`btn w-full ${plan.isPopular ? 'btn-primary' : 'btn-outline'}`}
              disabled={disabled}
              onClick={() => onChoose(plan.id)}
            >
              {pending ? texts.redirecting : chooseLabel(plan.title)}
            </button>
          )}
        </div>
      </div>
    </article>
  );
}
