// Invoices of subscriptions: built as drafts by the billing simulation, which finalizes and
// pays them (or fails the payment); the API lists and retrieves them. In this API version an
// invoice names its subscription under `parent.subscription_details` only, and has no `paid`.
import { checkAllowed, listParams, noSuch, paginate, str, type Route } from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { newId, nowSeconds, type Json } from '../primitives.ts';
import { pendingItems, type InvoiceItem } from './invoice-items.ts';
import { periodOf, type Subscription } from './subscriptions.ts';

type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

export interface Invoice extends Json {
  id: string;
  object: 'invoice';
  created: number;
  customer: string;
  status: InvoiceStatus;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  parent: { subscription_details: { subscription: string } & Json } & Json;
  status_transitions: { finalized_at: number | null; paid_at: number | null } & Json;
}

/** The subscription an invoice bills. */
function subscriptionOf(invoice: Invoice): string {
  return invoice.parent.subscription_details.subscription;
}

/** A line of invoice `invoiceId`: what differs between lines, and Stripe's fields that do not. */
function invoiceLine(
  invoiceId: string,
  line: { amount: number; currency: string; description: unknown; discountable: unknown; parent: Json; period: unknown; pricing: unknown; quantity: number; subscription: string },
): Json {
  return {
    id: newId('il_'),
    object: 'line_item',
    amount: line.amount,
    currency: line.currency,
    description: line.description,
    discount_amounts: [],
    discountable: line.discountable,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: line.parent,
    period: line.period,
    pretax_credit_amounts: [],
    pricing: line.pricing,
    quantity: line.quantity,
    quantity_decimal: String(line.quantity),
    subscription: line.subscription,
    subtotal: line.amount,
    taxes: [],
  };
}

/** The line of a pending invoice item (a proration) on the invoice that takes it. */
function itemLine(invoiceId: string, item: InvoiceItem): Json {
  return invoiceLine(invoiceId, {
    amount: item.amount,
    currency: item.currency,
    description: item.description,
    discountable: item.discountable,
    parent: {
      invoice_item_details: {
        invoice_item: item.id,
        proration: item.proration,
        proration_details: { credited_items: null },
        subscription: item.parent.subscription_details.subscription,
      },
      subscription_item_details: null,
      type: 'invoice_item_details',
    },
    period: item.period,
    pricing: item.pricing,
    quantity: item.quantity,
    subscription: item.parent.subscription_details.subscription,
  });
}

/** The line of a subscription item for the period `start`..`end`. */
function periodLine(sandbox: StripeSandbox, invoiceId: string, subscription: Subscription, item: Subscription['items']['data'][number], period: { start: number; end: number }): Json {
  return invoiceLine(invoiceId, {
    amount: item.price.unit_amount * item.quantity,
    currency: item.price.currency,
    description: `${item.quantity} × ${sandbox.state.products.get(item.price.product)?.name ?? item.price.id}`,
    discountable: true,
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: subscription.id,
        subscription_item: item.id,
      },
      type: 'subscription_item_details',
    },
    period: { end: period.end, start: period.start },
    pricing: {
      price_details: { price: item.price.id, product: item.price.product },
      type: 'price_details',
      unit_amount_decimal: String(item.price.unit_amount),
    },
    quantity: item.quantity,
    subscription: subscription.id,
  });
}

/**
 * A draft invoice, stored: the subscription's current period (unless `period` is false, as for
 * the immediate invoice of a plan change), and every pending invoice item of the subscription,
 * which it takes. The customer's credit balance pays first; a negative total becomes credit.
 */
export function buildInvoice(sandbox: StripeSandbox, subscription: Subscription, billingReason: string, period = true): Invoice {
  const now = nowSeconds();
  const data = sandbox.state.data;
  const customer = data.customers[subscription.customer];
  const { start, end } = periodOf(subscription);
  const id = newId('in_');
  const periodItems = period ? subscription.items.data : [];
  const pending = pendingItems(sandbox, subscription.id);
  for (const item of pending) item.invoice = id;
  const lines = [
    ...pending.map((item) => itemLine(id, item)),
    ...periodItems.map((item) => periodLine(sandbox, id, subscription, item, { start, end })),
  ];
  const total = lines.reduce((sum, line) => sum + (line.amount as number), 0);
  // Customer.balance: negative is credit the customer has with the account.
  const startingBalance = typeof customer?.balance === 'number' ? customer.balance : 0;
  const due = Math.max(0, total + startingBalance);
  const invoice: Invoice = {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Castloop (sandbox)',
    account_tax_ids: null,
    amount_due: due,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: due,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: billingReason,
    collection_method: 'charge_automatically',
    created: now,
    currency: subscription.currency,
    custom_fields: null,
    customer: subscription.customer,
    customer_account: null,
    customer_address: null,
    customer_email: customer?.email ?? null,
    customer_name: customer?.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: period ? end : now,
    period_start: period ? start : now,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: startingBalance,
    statement_descriptor: null,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  };
  data.invoices[id] = invoice;
  return invoice;
}

/** Draft to open: numbered, effective now, the customer's balance applied; collection attempted next. */
export function finalizeInvoice(sandbox: StripeSandbox, invoice: Invoice): void {
  const now = nowSeconds();
  const customer = sandbox.state.data.customers[invoice.customer];
  const endingBalance = Math.min(0, (invoice.total as number) + (invoice.starting_balance as number));
  if (customer) customer.balance = endingBalance;
  const sequence = Object.values(sandbox.state.data.invoices).filter((x) => x.customer === invoice.customer && x.number).length + 1;
  Object.assign(invoice, {
    status: 'open',
    number: `${customer?.invoice_prefix ?? 'LOCAL'}-${String(sequence).padStart(4, '0')}`,
    effective_at: now,
    ending_balance: endingBalance,
    status_transitions: { ...invoice.status_transitions, finalized_at: now },
    webhooks_delivered_at: now,
  });
}

export function markPaid(invoice: Invoice): void {
  Object.assign(invoice, {
    status: 'paid',
    amount_paid: invoice.amount_due,
    amount_remaining: 0,
    attempt_count: invoice.attempt_count + 1,
    attempted: true,
    auto_advance: false,
    next_payment_attempt: null,
    status_transitions: { ...invoice.status_transitions, paid_at: nowSeconds() },
  });
}

export function markPaymentFailed(invoice: Invoice): void {
  Object.assign(invoice, {
    attempt_count: invoice.attempt_count + 1,
    attempted: true,
    next_payment_attempt: nowSeconds() + 3 * 86400,
  });
}

export const invoiceRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/invoices$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'customer', 'subscription', 'status']);
      const customer = str(p, 'customer');
      const subscription = str(p, 'subscription');
      const status = str(p, 'status');
      const invoices = Object.values(s.state.data.invoices).filter(
        (x) =>
          (!customer || x.customer === customer) &&
          (!subscription || subscriptionOf(x) === subscription) &&
          (!status || x.status === status),
      );
      return paginate(invoices, p, '/v1/invoices');
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/invoices\/([^/]+)$/,
    handler: (s, _p, [id]) => s.state.data.invoices[id] ?? noSuch('invoice', id),
  },
];
