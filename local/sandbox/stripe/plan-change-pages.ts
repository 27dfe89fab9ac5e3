// The billing portal's plan change, as Stripe's hosted portal offers it when the session's
// configuration enables `subscription_update`: choose another of the configured prices, see what
// the change prorates, confirm.
import { escapeHtml as e, htmlPage } from '../http.ts';
import { allowedPrices, type PortalSession } from './resources/billing-portal.ts';
import { findConfiguration, type ProrationBehavior } from './resources/portal-configurations.ts';
import type { Price } from './resources/prices.ts';
import { periodOf, prorationOf, type Subscription } from './resources/subscriptions.ts';
import type { StripeSandbox } from './sandbox.ts';
import { formatAmount, nowSeconds } from './primitives.ts';

const day = (unix: number) =>
  new Date(unix * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

const perInterval = (price: Price) => `${formatAmount(price.unit_amount, price.currency)} / ${price.recurring.interval}`;

/** The prices this portal session may move the subscription to (none when its configuration does not allow plan changes). */
export function planChoices(sandbox: StripeSandbox, portal: PortalSession, sub: Subscription): Price[] {
  if (sub.status === 'canceled' || sub.cancel_at_period_end) return [];
  return allowedPrices(findConfiguration(sandbox, portal.configuration)).flatMap((id) => sandbox.state.prices.get(id) ?? []);
}

export function prorationBehaviorOf(sandbox: StripeSandbox, portal: PortalSession): ProrationBehavior {
  return findConfiguration(sandbox, portal.configuration).features.subscription_update.proration_behavior;
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

/** What confirming the change would do now: the proration lines and what the next invoice (or today's) holds. */
export function planChangePreview(sandbox: StripeSandbox, portal: PortalSession, sub: Subscription, price: Price) {
  const item = sub.items.data[0];
  const { unused, remaining } = prorationOf(sub, item, price, nowSeconds());
  const behavior = prorationBehaviorOf(sandbox, portal);
  const adjustment = behavior === 'none' ? 0 : unused + remaining;
  return {
    behavior,
    lines:
      behavior === 'none'
        ? []
        : [
            { label: `Unused time on ${productName(sandbox, item.price)}`, amount: unused },
            { label: `Remaining time on ${productName(sandbox, price)}`, amount: remaining },
          ],
    adjustment,
    renewsOn: periodOf(sub).end,
    nextInvoice: (behavior === 'create_prorations' ? adjustment : 0) + price.unit_amount * item.quantity,
  };
}

export function planConfirmPage(sandbox: StripeSandbox, portal: PortalSession, sub: Subscription, price: Price): string {
  const from = sub.items.data[0].price;
  const preview = planChangePreview(sandbox, portal, sub, price);
  const money = (amount: number) => formatAmount(amount, price.currency);
  const rows = preview.lines
    .map((line) => `<tr><th scope="row">${e(line.label)}</th><td>${e(money(line.amount))}</td></tr>`)
    .join('\n');
  const when =
    preview.behavior === 'always_invoice'
      ? `<p>Amount due today: <strong id="prorated-amount">${e(money(Math.max(0, preview.adjustment)))}</strong></p>`
      : preview.behavior === 'create_prorations'
        ? `<p>Prorated adjustment, added to your next invoice: <strong id="prorated-amount">${e(money(preview.adjustment))}</strong></p>`
        : '<p>No proration: the rest of this period stays as paid.</p>';
  return htmlPage(
    'Confirm your new plan · Castloop billing (sandbox)',
    `<h1>Confirm your new plan</h1>
<p class="muted">Stripe sandbox customer portal.</p>
<p>From <strong>${e(productName(sandbox, from))}</strong> (${e(perInterval(from))}) to <strong>${e(productName(sandbox, price))}</strong> (${e(perInterval(price))}), starting today.</p>
${
  rows
    ? `<table>
<caption>Prorations for the rest of this period, until ${e(day(preview.renewsOn))}</caption>
<tbody>
${rows}
</tbody>
</table>`
    : ''
}
${when}
<p>Next invoice on ${e(day(preview.renewsOn))}: <strong id="next-invoice">${e(money(preview.nextInvoice))}</strong></p>
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
