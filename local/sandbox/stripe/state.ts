// The sandbox account's data: what Stripe stores (customers, checkout sessions, subscriptions
// and their schedules, invoices, invoice items, invoice payments and refunds, portal
// configurations and sessions, events) and nothing that acts
// on it. Kept in memory and mirrored to <dataDir>/stripe.json; prices and products come from
// the settings.
import path from 'node:path';
import { JsonFile } from '../persist.ts';
import type { Customer } from './resources/customers.ts';
import type { CheckoutSession, LineItemInput } from './resources/checkout-sessions.ts';
import type { EventRecord } from './resources/events.ts';
import type { Invoice } from './resources/invoices.ts';
import type { PortalSession } from './resources/billing-portal.ts';
import type { InvoiceItem } from './resources/invoice-items.ts';
import type { InvoicePayment, Refund } from './resources/payments.ts';
import type { PortalConfiguration } from './resources/portal-configurations.ts';
import { buildOneTimePrice, buildPrice, buildProduct, type OneTimePrice, type Price, type Product } from './resources/prices.ts';
import type { SubscriptionSchedule } from './resources/subscription-schedules.ts';
import type { Subscription } from './resources/subscriptions.ts';
import type { StripeSettings } from './settings.ts';
import type { Json, Metadata } from './primitives.ts';

const DEFAULT_API_VERSION = '2026-10-28.endive';

interface AccountData {
  version: 2;
  customers: Record<string, Customer>;
  checkoutSessions: Record<string, CheckoutSession>;
  lineItems: Record<string, LineItemInput[]>;
  /** `subscription_data` given when a checkout session was created (not part of the session object). */
  subscriptionData: Record<string, { metadata?: Metadata; description?: string }>;
  subscriptions: Record<string, Subscription>;
  /** Plan changes the portal scheduled for a period's end. */
  subscriptionSchedules: Record<string, SubscriptionSchedule>;
  invoices: Record<string, Invoice>;
  /** Invoice items (prorations): pending until the subscription's next invoice takes them. */
  invoiceItems: Record<string, InvoiceItem>;
  /** What paid invoices collected, and what was refunded of it. */
  invoicePayments: Record<string, InvoicePayment>;
  refunds: Record<string, Refund>;
  portalConfigurations: Record<string, PortalConfiguration>;
  portalSessions: Record<string, PortalSession>;
  events: Record<string, EventRecord>;
  /** Event ids, oldest first. */
  eventOrder: string[];
  apiVersion: string;
}

function emptyData(): AccountData {
  return {
    version: 2,
    customers: {},
    checkoutSessions: {},
    lineItems: {},
    subscriptionData: {},
    subscriptions: {},
    subscriptionSchedules: {},
    invoices: {},
    invoiceItems: {},
    invoicePayments: {},
    refunds: {},
    portalConfigurations: {},
    portalSessions: {},
    events: {},
    eventOrder: [],
    apiVersion: DEFAULT_API_VERSION,
  };
}

export class StripeState {
  data: AccountData;
  readonly prices = new Map<string, Price>();
  /** Prices paid once (Checkout in payment mode), apart from the subscriptions' recurring ones. */
  readonly oneTimePrices = new Map<string, OneTimePrice>();
  readonly products = new Map<string, Product>();
  private readonly file: JsonFile<AccountData>;

  constructor(settings: StripeSettings, dataDir: string) {
    this.file = new JsonFile(path.join(dataDir, 'stripe.json'), () => this.data);
    const loaded = this.file.load();
    // Data of an older shape (earlier API version objects) is dropped, not migrated.
    this.data = loaded && loaded.version === 2 ? { ...emptyData(), ...loaded } : emptyData();
    const created = Math.floor(Date.UTC(2025, 0, 1) / 1000);
    for (const p of settings.prices) {
      this.prices.set(p.id, buildPrice(p, created));
      const product = buildProduct(p, created);
      this.products.set(product.id, product);
    }
    for (const p of settings.oneTimePrices) {
      const { price, product } = buildOneTimePrice(p, created);
      this.oneTimePrices.set(price.id, price);
      this.products.set(product.id, product);
    }
  }

  /** A price of either kind, for a checkout's line items. */
  anyPrice(id: string): Price | OneTimePrice | undefined {
    return this.prices.get(id) ?? this.oneTimePrices.get(id);
  }

  /** Schedules a write of the data (coalesced). */
  save(): void {
    this.file.save();
  }

  flush(): void {
    this.file.flush();
  }

  /** Looks an id up in every collection (for `expand`). */
  find(id: string): Json | null {
    const d = this.data;
    return (
      d.customers[id] ??
      d.subscriptions[id] ??
      d.subscriptionSchedules[id] ??
      d.invoices[id] ??
      d.invoiceItems[id] ??
      d.invoicePayments[id] ??
      d.refunds[id] ??
      d.checkoutSessions[id] ??
      this.anyPrice(id) ??
      this.products.get(id) ??
      d.portalSessions[id] ??
      d.portalConfigurations[id] ??
      d.events[id]?.event ??
      null
    );
  }
}
