// Invoice items: the prorations a plan change creates. Pending (`invoice: null`) until the
// subscription's next invoice takes them as lines; listed and retrieved through the API.
import { bool, checkAllowed, listParams, noSuch, paginate, str, type Route } from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { newId, type Json } from '../primitives.ts';
import type { Price } from './prices.ts';

export interface InvoiceItem extends Json {
  id: string;
  object: 'invoiceitem';
  amount: number;
  currency: string;
  customer: string;
  date: number;
  description: string;
  invoice: string | null;
  parent: { subscription_details: { subscription: string; subscription_item: string }; type: 'subscription_details' };
  period: { start: number; end: number };
  pricing: { price_details: { price: string; product: string }; type: 'price_details'; unit_amount_decimal: string };
  proration: boolean;
  quantity: number;
}

/** Stripe's proration line names: 'Unused time on Castloop Starter after 26 Nov 2026'. */
function prorationDescription(kind: 'Unused' | 'Remaining', product: string, at: number): string {
  const date = new Date(at * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return `${kind} time on ${product} after ${date}`;
}

/** A proration item for `price` over `period` (the rest of the billing period): negative for the unused time. */
export function buildProrationItem(
  sandbox: StripeSandbox,
  fields: { kind: 'Unused' | 'Remaining'; customer: string; subscription: string; subscriptionItem: string; price: Price; quantity: number; amount: number; period: { start: number; end: number } },
): InvoiceItem {
  const product = sandbox.state.products.get(fields.price.product)?.name ?? fields.price.id;
  const item: InvoiceItem = {
    id: newId('ii_'),
    object: 'invoiceitem',
    amount: fields.amount,
    currency: fields.price.currency,
    customer: fields.customer,
    customer_account: null,
    date: fields.period.start,
    description: prorationDescription(fields.kind, product, fields.period.start),
    discountable: false,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: {},
    net_amount: fields.amount,
    parent: {
      subscription_details: { subscription: fields.subscription, subscription_item: fields.subscriptionItem },
      type: 'subscription_details',
    },
    period: fields.period,
    pricing: {
      price_details: { price: fields.price.id, product: fields.price.product },
      type: 'price_details',
      unit_amount_decimal: String(fields.price.unit_amount),
    },
    proration: true,
    proration_details: { credited_items: null, discount_amounts: [] },
    quantity: fields.quantity,
    quantity_decimal: String(fields.quantity),
    tax_rates: [],
    test_clock: null,
  };
  sandbox.state.data.invoiceItems[item.id] = item;
  return item;
}

/** The subscription's items no invoice has taken yet, oldest first. */
export function pendingItems(sandbox: StripeSandbox, subscriptionId: string): InvoiceItem[] {
  return Object.values(sandbox.state.data.invoiceItems)
    .filter((i) => i.invoice === null && i.parent.subscription_details.subscription === subscriptionId)
    .sort((a, b) => a.date - b.date);
}

export const invoiceItemRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/invoiceitems$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'customer', 'invoice', 'pending']);
      const customer = str(p, 'customer');
      const invoice = str(p, 'invoice');
      const pending = bool(p, 'pending');
      const items = Object.values(s.state.data.invoiceItems).filter(
        (i) =>
          (!customer || i.customer === customer) &&
          (!invoice || i.invoice === invoice) &&
          (pending === null || (i.invoice === null) === pending),
      );
      return paginate(items, p, '/v1/invoiceitems', (i) => i.date);
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/invoiceitems\/([^/]+)$/,
    handler: (s, _p, [id]) => s.state.data.invoiceItems[id] ?? noSuch('invoiceitem', id),
  },
];
