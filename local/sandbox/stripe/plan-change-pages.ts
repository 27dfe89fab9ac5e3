// The billing portal's plan change, as Stripe's hosted portal offers it when the session's
// configuration enables `subscription_update`: choose another of the configured prices, see what
// the change costs and when it starts (at once, or at the period's end when the configuration
// schedules it), confirm.
import { escapeHtml as e, htmlPage } from '../http.ts';
import { allowedPrices, type PortalSession } from './resources/billing-portal.ts';
import { changeWaitsForPeriodEnd, findConfiguration, type SubscriptionUpdateFeature } from './resources/portal-configurations.ts';
import type { Price } from './resources/prices.ts';
import { periodOf, prorationOf, type Subscription } from './resources/subscriptions.ts';
import type { StripeSandbox } from './sandbox.ts';
import { addMonths, formatAmount, nowSeconds } from './primitives.ts';

export const day = (unix: number) =>
  new Date(unix * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

const perInterval = (price: Price) => `${formatAmount(price.unit_amount, price.currency)} / ${price.recurring.interval}`;

/**
 * The prices this portal session may move the subscription to: none when its configuration does
 * not allow plan changes, or while a change is scheduled (the portal offers to cancel that one).
 */
export function planChoices(sandbox: StripeSandbox, portal: PortalSession, sub: Subscription): Price[] {
  if (sub.status === 'canceled' || sub.cancel_at_period_end || sub.schedule) return [];
  return allowedPrices(findConfiguration(sandbox, portal.configuration)).flatMap((id) => sandbox.state.prices.get(id) ?? []);
}

export function updateFeatureOf(sandbox: StripeSandbox, portal: PortalSession): SubscriptionUpdateFeature {
  return findConfiguration(sandbox, portal.configuration).features.subscription_update;
}

const productName = (sandbox: StripeSandbox, price: Price) => sandbox.state.products.get(price.product)?.name ?? price.id;

export function planChoicePage(sandbox: StripeSandbox, portal: PortalSession, sub: Subscription, error?: string): string {
  const current = sub.items.data[0]?.price.id;
  const options = planChoices(sandbox, portal, sub)
    .map((price) => {
      const id = `price-${price.id}`;
      const isCurrent = price.id === current;
      return `<label class="choice" for="${e(id)}"><input type="radio" id="${e(id)}" name="price" value="${e(price.id)}"${isCurrent ? ' disabled' : ''} required> ${e(productName(sandbox, price))}: <strong>${e(perInterval(price))}</strong>${isCurrent ? ' (current plan)' : ''}</label>`;
    })
    .join('\n');
  return htmlPage(
    'Update your plan · Castloop billing (sandbox)',
    `<h1>Update your plan</h1>
<p class="muted">Stripe sandbox customer portal.</p>
${error ? `<p class="warning" role="alert">${e(error)}</p>` : ''}
<form method="get" action="/portal/${e(portal.id)}/confirm">
<input type="hidden" name="subscription" value="${e(sub.id)}">
<fieldset>
<legend>Choose a plan</legend>
${options}
</fieldset>
<div class="actions">
<button type="submit">Continue</button>
<a href="/portal/${e(portal.id)}?home=1">Back to billing</a>
</div>
</form>`,
  );
}

interface PreviewLine {
  label: string;
  amount: number;
}

/**
 * What confirming the change would do now: when it starts (now, or at the period's end), the
 * lines billed for it, what is due today and the next invoice.
 */
export function planChangePreview(sandbox: StripeSandbox, portal: PortalSession, sub: Subscription, price: Price) {
  const item = sub.items.data[0];
  const feature = updateFeatureOf(sandbox, portal);
  const now = nowSeconds();
  const periodEnd = periodOf(sub).end;
  const next = price.unit_amount * item.quantity;
  if (changeWaitsForPeriodEnd(feature, item.price, price, item.quantity)) {
    return { startsOn: periodEnd, lines: [] as PreviewLine[], dueToday: 0, nextInvoiceOn: periodEnd, nextInvoice: next, prorated: false };
  }
  const behavior = feature.proration_behavior;
  const { unused, remaining } = prorationOf(sub, item, price, now);
  const credit: PreviewLine = { label: `Unused time on ${productName(sandbox, item.price)}`, amount: unused };
  if (feature.billing_cycle_anchor === 'now') {
    // A new period starts today, billed today in full.
    const lines = [...(behavior === 'none' ? [] : [credit]), { label: `${productName(sandbox, price)} until ${day(addMonths(now, 1))}`, amount: next }];
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
    return { startsOn: now, lines, dueToday: Math.max(0, total), nextInvoiceOn: addMonths(now, 1), nextInvoice: next, prorated: false };
  }
  const lines = behavior === 'none' ? [] : [credit, { label: `Remaining time on ${productName(sandbox, price)}`, amount: remaining }];
  const adjustment = lines.reduce((sum, line) => sum + line.amount, 0);
  return {
    startsOn: now,
    lines,
    dueToday: behavior === 'always_invoice' ? Math.max(0, adjustment) : 0,
    nextInvoiceOn: periodEnd,
    nextInvoice: (behavior === 'create_prorations' ? adjustment : 0) + next,
    prorated: behavior === 'create_prorations',
  };
}

export function planConfirmPage(sandbox: StripeSandbox, portal: PortalSession, sub: Subscription, price: Price): string {
  const from = sub.items.data[0].price;
  const preview = planChangePreview(sandbox, portal, sub, price);
  const money = (amount: number) => formatAmount(amount, price.currency);
  const now = nowSeconds();
  const rows = preview.lines
    .map((line) => `<tr><th scope="row">${e(line.label)}</th><td>${e(money(line.amount))}</td></tr>`)
    .join('\n');
  const scheduled = preview.startsOn > now;
  const adjustment = preview.lines.reduce((sum, line) => sum + line.amount, 0);
  const when = scheduled
    ? `<p>Nothing to pay today: <strong>${e(productName(sandbox, from))}</strong> stays until ${e(day(preview.startsOn))}.</p>`
    : preview.prorated
      ? `<p>Prorated adjustment, added to your next invoice: <strong id="prorated-amount">${e(money(adjustment))}</strong></p>`
      : preview.lines.length
        ? `<p>Amount due today: <strong id="prorated-amount">${e(money(preview.dueToday))}</strong></p>`
        : '<p>No proration: the rest of this period stays as paid.</p>';
  return htmlPage(
    'Confirm your new plan · Castloop billing (sandbox)',
    `<h1>Confirm your new plan</h1>
<p class="muted">Stripe sandbox customer portal.</p>
<p>From <strong>${e(productName(sandbox, from))}</strong> (${e(perInterval(from))}) to <strong>${e(productName(sandbox, price))}</strong> (${e(perInterval(price))}), starting <span id="starts-on">${scheduled ? e(day(preview.startsOn)) : 'today'}</span>.</p>
${
  rows
    ? `<table>
<caption>${preview.prorated ? `Prorations for the rest of this period, until ${e(day(periodOf(sub).end))}` : 'Billed today'}</caption>
<tbody>
${rows}
</tbody>
</table>`
    : ''
}
${when}
<p>Next invoice on ${e(day(preview.nextInvoiceOn))}: <strong id="next-invoice">${e(money(preview.nextInvoice))}</strong></p>
<form method="post" action="/portal/${e(portal.id)}/change">
<input type="hidden" name="subscription" value="${e(sub.id)}">
<input type="hidden" name="price" value="${e(price.id)}">
<div class="actions">
<button type="submit">Confirm</button>
<a href="/portal/${e(portal.id)}/update?subscription=${encodeURIComponent(sub.id)}">Choose another plan</a>
</div>
</form>`,
  );
}
