// Server-rendered pages: the hosted checkout page, the billing portal and the sandbox's
// section of the home page (recent events and their webhook deliveries).
import { escapeHtml as e, htmlPage } from '../http.ts';
import type { PortalSession } from './resources/billing-portal.ts';
import type { CheckoutSession } from './resources/checkout-sessions.ts';
import type { Customer } from './resources/customers.ts';
import type { EventRecord } from './resources/events.ts';
import { periodOf, type Subscription } from './resources/subscriptions.ts';
import { day, planChoices } from './plan-change-pages.ts';
import { nextPhase } from './resources/subscription-schedules.ts';
import type { StripeSandbox } from './sandbox.ts';
import { formatAmount } from './primitives.ts';

function date(unix: number | null | undefined): string {
  if (!unix) return '—';
  return new Date(unix * 1000).toISOString().slice(0, 10);
}

function dateTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

export function messagePage(title: string, message: string, link?: { href: string; text: string }): string {
  return htmlPage(
    title,
    `<h1>${e(title)}</h1>\n<p>${e(message)}</p>${link ? `\n<p><a href="${e(link.href)}">${e(link.text)}</a></p>` : ''}`,
  );
}

export function checkoutPage(sandbox: StripeSandbox, session: CheckoutSession, error?: string): string {
  const items = sandbox.state.data.lineItems[session.id] ?? [];
  const customer = session.customer ? sandbox.state.data.customers[session.customer] : undefined;
  const email = customer?.email ?? session.customer_email;
  const rows = items
    .map((item) => {
      const price = sandbox.state.anyPrice(item.price);
      const product = price ? sandbox.state.products.get(price.product) : undefined;
      const amount = price
        ? `${formatAmount(price.unit_amount, price.currency)}${price.recurring ? ` / ${price.recurring.interval}` : ''}`
        : item.price;
      return `<li><span class="product">${e(product?.name ?? item.price)}</span>${item.quantity > 1 ? ` × ${item.quantity}` : ''}: <strong>${e(amount)}</strong></li>`;
    })
    .join('\n');
  const first = items[0] ? sandbox.state.prices.get(items[0].price) : undefined;
  const interval = first?.recurring.interval ?? 'month';
  const once = session.mode === 'payment';
  const emailField = email
    ? `<p>Email: <strong id="customer-email">${e(email)}</strong></p>`
    : `<p><label for="email">Email</label><br><input id="email" name="email" type="email" autocomplete="email" required></p>`;
  return htmlPage(
    'Castloop checkout (sandbox)',
    `<h1>${once ? 'Pay Castloop' : 'Subscribe to Castloop'}</h1>
<p class="muted">Stripe sandbox: no real payment is made. Session <code>${e(session.id)}</code>.</p>
${error ? `<p class="warning" role="alert">${e(error)}</p>` : ''}
<h2>Order summary</h2>
<ul>
${rows}
</ul>
<p>Total due today: <span class="price">${e(formatAmount(session.amount_total, session.currency))}</span>${once ? '' : ` <span class="muted">per ${e(interval)}</span>`}</p>
<form method="post" action="/checkout/${e(session.id)}/pay">
${emailField}
<p class="muted">Test card 4242 4242 4242 4242 is assumed.</p>
<div class="actions">
<button type="submit">Pay</button>
${session.cancel_url ? `<a href="${e(session.cancel_url)}">Cancel</a>` : ''}
</div>
</form>`,
  );
}

/** The price a subscription's schedule changes it to at the period's end, if any. */
function scheduledPrice(sandbox: StripeSandbox, sub: Subscription) {
  const schedule = sub.schedule ? sandbox.state.data.subscriptionSchedules[sub.schedule] : undefined;
  const phase = schedule ? nextPhase(schedule) : undefined;
  const price = phase ? sandbox.state.prices.get(phase.items[0].price) : undefined;
  return phase && price ? { price, at: phase.start_date } : undefined;
}

function subscriptionRow(sandbox: StripeSandbox, portal: PortalSession, sub: Subscription): string {
  const item = sub.items.data[0];
  const product = item ? sandbox.state.products.get(item.price.product) : undefined;
  const price = item
    ? `${formatAmount(item.price.unit_amount, item.price.currency)} / ${item.price.recurring.interval}`
    : '—';
  let state: string;
  let actions = '';
  if (sub.status === 'canceled') {
    state = `Canceled on ${date(sub.ended_at)}`;
  } else if (scheduledPrice(sandbox, sub)) {
    // A plan change waits for the period's end: the portal shows it and offers to cancel it.
    const next = scheduledPrice(sandbox, sub)!;
    state = `${sub.status === 'active' ? 'Active' : sub.status}, changes to ${sandbox.state.products.get(next.price.product)?.name ?? next.price.id} on ${day(next.at)}`;
    actions = `<form method="post" action="/portal/${e(portal.id)}/keep"><input type="hidden" name="subscription" value="${e(sub.id)}"><button type="submit">Cancel scheduled change</button></form>`;
  } else if (sub.cancel_at_period_end) {
    state = `Cancels on ${date(periodOf(sub).end)}`;
    actions = `<form method="post" action="/portal/${e(portal.id)}/renew"><input type="hidden" name="subscription" value="${e(sub.id)}"><button type="submit">Renew subscription</button></form>`;
  } else {
    state = `${sub.status === 'active' ? 'Active' : sub.status === 'past_due' ? 'Past due' : sub.status}, renews on ${date(periodOf(sub).end)}`;
    const update = planChoices(sandbox, portal, sub).length
      ? `<p><a href="/portal/${e(portal.id)}/update?subscription=${encodeURIComponent(sub.id)}">Update plan</a></p>\n`
      : '';
    actions = `${update}<form method="post" action="/portal/${e(portal.id)}/cancel">
<input type="hidden" name="subscription" value="${e(sub.id)}">
<div class="actions">
<button type="submit" name="when" value="period_end">Cancel subscription</button>
<button type="submit" name="when" value="now" class="secondary">Cancel immediately</button>
</div>
</form>`;
  }
  return `<section aria-labelledby="h-${e(sub.id)}">
<h3 id="h-${e(sub.id)}">${e(product?.name ?? 'Subscription')}</h3>
<p><strong>${e(price)}</strong> · ${e(state)}</p>
${actions}
</section>`;
}

export function portalPage(sandbox: StripeSandbox, portal: PortalSession, customer: Customer, notice?: string): string {
  const subs = Object.values(sandbox.state.data.subscriptions)
    .filter((s) => s.customer === customer.id)
    .sort((a, b) => b.created - a.created);
  const current = subs.filter((s) => s.status !== 'canceled');
  const past = subs.filter((s) => s.status === 'canceled');
  return htmlPage(
    'Castloop billing (sandbox)',
    `<h1>Manage your Castloop billing</h1>
<p class="muted">Stripe sandbox customer portal. Signed in as <strong id="customer-email">${e(customer.email ?? customer.id)}</strong>.</p>
${notice ? `<p class="notice" role="status">${e(notice)}</p>` : ''}
<h2>Current subscription</h2>
${current.length ? current.map((s) => subscriptionRow(sandbox, portal, s)).join('\n') : '<p>No active subscription.</p>'}
${past.length ? `<h2>Past subscriptions</h2>\n${past.map((s) => subscriptionRow(sandbox, portal, s)).join('\n')}` : ''}
${portal.return_url ? `<p class="actions"><a href="${e(portal.return_url)}">Return to Castloop</a></p>` : ''}`,
  );
}

function deliveryCell(record: EventRecord): string {
  const last = record.deliveries.at(-1);
  if (!last) return 'Not sent yet';
  const outcome = last.status === null ? `unreachable (${last.error ?? 'error'})` : `HTTP ${last.status}`;
  const retry = record.nextRetryAt ? `; retry at ${dateTime(record.nextRetryAt)}` : '';
  return `${e(outcome)} · ${record.deliveries.length} attempt${record.deliveries.length === 1 ? '' : 's'}${e(retry)}`;
}

export function homeSection(sandbox: StripeSandbox): string {
  const records = sandbox.events.recent(50);
  const undelivered = sandbox.state.data.eventOrder.filter((id) => sandbox.state.data.events[id]?.status !== 'delivered').length;
  const prices = [...sandbox.state.prices.values()]
    .map(
      (p) =>
        `<li><code>${e(p.id)}</code>: ${e(sandbox.state.products.get(p.product)?.name ?? p.product)}, ${e(formatAmount(p.unit_amount, p.currency))} / ${e(p.recurring.interval)}</li>`,
    )
    .join('\n');
  const rows = records
    .map(
      (r) => `<tr>
<td><code>${e(r.event.id)}</code></td>
<td>${e(r.event.type)}</td>
<td>${e(dateTime(r.event.created * 1000))}</td>
<td>${e(r.status)}</td>
<td>${deliveryCell(r)}</td>
<td><form method="post" action="/_sandbox/stripe/events/${e(r.event.id)}/resend"><button type="submit" class="secondary" aria-label="Resend ${e(r.event.id)}">Resend</button></form></td>
</tr>`,
    )
    .join('\n');
  return `<h2 id="stripe">Stripe</h2>
<p>API base <code>${e(sandbox.baseUrl)}</code> (use the <code>stripe</code> SDK with host, port and protocol http). Webhooks go to <code>${e(sandbox.settings.webhookUrl)}</code>.</p>
<h3>Prices</h3>
<ul>
${prices}
</ul>
<h3>Recent events</h3>
<p>${undelivered === 0 ? 'Every event has been delivered.' : `<strong>${undelivered}</strong> event${undelivered === 1 ? ' has' : 's have'} not been delivered; they are kept here and can be resent.`}</p>
${
  records.length
    ? `<table>
<caption>Newest first (up to 50)</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Type</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Last delivery</th><th scope="col">Action</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p>No events yet.</p>'
}`;
}
