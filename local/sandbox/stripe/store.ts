// The Stripe sandbox's state and business operations: customers, checkout sessions,
// subscriptions, invoices, portal sessions and events with their webhook deliveries.
// Kept in memory and mirrored to <dataDir>/stripe.json.
import path from 'node:path';
import { JsonFile } from '../persist.ts';
import {
  addMonths,
  buildCustomer,
  buildPrice,
  buildProduct,
  type CheckoutSession,
  customerDetails,
  type Customer,
  type Invoice,
  type Json,
  type LineItemInput,
  type Metadata,
  newId,
  nowSeconds,
  type PortalSession,
  type Price,
  type Product,
  type StripeEvent,
  type Subscription,
  type SubscriptionItem,
} from './objects.ts';
import type { StripeSettings } from './settings.ts';
import { deliver, type Delivery } from './webhooks.ts';

export const DEFAULT_API_VERSION = '2026-10-28.endive';

export interface EventRecord {
  event: StripeEvent;
  deliveries: Delivery[];
  status: 'pending' | 'delivered' | 'failed';
  /** Unix ms of the next automatic retry, or null. */
  nextRetryAt: number | null;
  retries: number;
}

interface State {
  version: 1;
  customers: Record<string, Customer>;
  checkoutSessions: Record<string, CheckoutSession>;
  lineItems: Record<string, LineItemInput[]>;
  /** `subscription_data` given when a checkout session was created (not part of the session object). */
  subscriptionData: Record<string, { metadata?: Metadata; description?: string }>;
  subscriptions: Record<string, Subscription>;
  invoices: Record<string, Invoice>;
  portalSessions: Record<string, PortalSession>;
  events: Record<string, EventRecord>;
  /** Event ids, oldest first. */
  eventOrder: string[];
  apiVersion: string;
}

function emptyState(): State {
  return {
    version: 1,
    customers: {},
    checkoutSessions: {},
    lineItems: {},
    subscriptionData: {},
    subscriptions: {},
    invoices: {},
    portalSessions: {},
    events: {},
    eventOrder: [],
    apiVersion: DEFAULT_API_VERSION,
  };
}

const MAX_EVENTS = 1000;

export class StripeStore {
  state: State;
  readonly prices = new Map<string, Price>();
  readonly products = new Map<string, Product>();
  private readonly file: JsonFile<State>;
  private queue: Promise<unknown> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly settings: StripeSettings,
    readonly baseUrl: string,
    dataDir: string,
  ) {
    this.file = new JsonFile(path.join(dataDir, 'stripe.json'), () => this.state);
    const loaded = this.file.load();
    this.state = loaded && loaded.version === 1 ? { ...emptyState(), ...loaded } : emptyState();
    const created = Math.floor(Date.UTC(2025, 0, 1) / 1000);
    for (const p of settings.prices) {
      this.prices.set(p.id, buildPrice(p, created));
      const product = buildProduct(p, created);
      this.products.set(product.id, product);
    }
  }

  startRetries(): void {
    if (this.settings.retrySeconds.length === 0) return;
    // Events left pending by a previous run (stopped mid-delivery) are retried soon.
    for (const record of Object.values(this.state.events)) {
      if (record.status === 'pending' && record.nextRetryAt === null) record.nextRetryAt = Date.now() + 2000;
    }
    this.retryTimer = setInterval(() => this.retryDue(), 1000);
    this.retryTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.retryTimer) clearInterval(this.retryTimer);
    await this.queue.catch(() => {});
    this.file.flush();
  }

  save(): void {
    this.file.save();
  }

  /** Looks an id up in every collection (for `expand`). */
  find(id: string): Json | null {
    const s = this.state;
    return (
      s.customers[id] ??
      s.subscriptions[id] ??
      s.invoices[id] ??
      s.checkoutSessions[id] ??
      this.prices.get(id) ??
      this.products.get(id) ??
      s.portalSessions[id] ??
      s.events[id]?.event ??
      null
    );
  }

  // --- events and webhook delivery -------------------------------------------------------

  /** Records an event (a snapshot of `object`) and queues its delivery; resolves when delivered or failed. */
  emit(type: string, object: Json, previousAttributes?: Json): { event: StripeEvent; delivered: Promise<Delivery> } {
    const event: StripeEvent = {
      id: newId('evt_'),
      object: 'event',
      api_version: this.state.apiVersion,
      created: nowSeconds(),
      data: previousAttributes
        ? { object: structuredClone(object), previous_attributes: previousAttributes }
        : { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.state.events[event.id] = { event, deliveries: [], status: 'pending', nextRetryAt: null, retries: 0 };
    this.state.eventOrder.push(event.id);
    this.trimEvents();
    this.save();
    return { event, delivered: this.enqueue(event.id, 'initial') };
  }

  /** Sends an event again (same id and payload, new signature), e.g. to test idempotency. */
  resend(eventId: string): Promise<Delivery> {
    return this.enqueue(eventId, 'resend');
  }

  private enqueue(eventId: string, reason: Delivery['reason']): Promise<Delivery> {
    const run = this.queue.then(() => this.deliverNow(eventId, reason));
    this.queue = run.catch(() => {});
    return run;
  }

  private async deliverNow(eventId: string, reason: Delivery['reason']): Promise<Delivery> {
    const record = this.state.events[eventId];
    if (!record) throw new Error(`No such event: ${eventId}`);
    const payload = JSON.stringify(record.event, null, 2);
    const delivery = await deliver(this.settings.webhookUrl, payload, this.settings.webhookSecret, reason);
    record.deliveries.push(delivery);
    if (delivery.ok) {
      record.status = 'delivered';
      record.nextRetryAt = null;
    } else if (reason === 'resend') {
      // A failed manual resend leaves a delivered event delivered and scheduled retries in place.
      if (record.status !== 'delivered' && record.nextRetryAt === null) record.status = 'failed';
    } else {
      const delay = this.settings.retrySeconds[record.retries];
      record.status = delay === undefined ? 'failed' : 'pending';
      record.nextRetryAt = delay === undefined ? null : Date.now() + delay * 1000;
    }
    this.save();
    return delivery;
  }

  private retryDue(): void {
    const now = Date.now();
    for (const id of this.state.eventOrder) {
      const record = this.state.events[id];
      if (record?.nextRetryAt != null && record.nextRetryAt <= now) {
        record.nextRetryAt = null;
        record.retries += 1;
        void this.enqueue(id, 'retry');
      }
    }
  }

  private trimEvents(): void {
    while (this.state.eventOrder.length > MAX_EVENTS) {
      const id = this.state.eventOrder.shift();
      if (id) delete this.state.events[id];
    }
  }

  /** Newest first. */
  recentEvents(limit = 50): EventRecord[] {
    return this.state.eventOrder
      .slice(-limit)
      .reverse()
      .map((id) => this.state.events[id])
      .filter((r): r is EventRecord => Boolean(r));
  }

  // --- checkout ---------------------------------------------------------------------------

  sessionAmount(items: LineItemInput[]): number {
    return items.reduce((sum, item) => sum + (this.prices.get(item.price)?.unit_amount ?? 0) * item.quantity, 0);
  }

  lineItemsList(sessionId: string): Json {
    const items = this.state.lineItems[sessionId] ?? [];
    const data = items.map((item, index) => {
      const price = this.prices.get(item.price);
      const amount = (price?.unit_amount ?? 0) * item.quantity;
      return {
        id: `li_${sessionId.slice(-16)}${index}`,
        object: 'item',
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price?.currency ?? 'usd',
        description: price ? (this.products.get(price.product)?.name ?? price.id) : item.price,
        price: price ? structuredClone(price) : null,
        quantity: item.quantity,
      };
    });
    return { object: 'list', data, has_more: false, url: `/v1/checkout/sessions/${sessionId}/line_items` };
  }

  /**
   * Completes an open checkout session: creates the customer if needed, the subscription and
   * its paid invoice, then sends checkout.session.completed, customer.subscription.created and
   * invoice.paid (in that order) and resolves after their delivery attempts.
   */
  async pay(sessionId: string, email: string | null): Promise<CheckoutSession> {
    const session = this.state.checkoutSessions[sessionId];
    if (!session) throw new Error(`No such checkout session: ${sessionId}`);
    if (session.status !== 'open') throw new Error(`This checkout session is ${session.status}.`);
    let customer = session.customer ? this.state.customers[session.customer] : undefined;
    if (!customer) {
      const address = session.customer_email ?? email;
      if (!address) throw new Error('An e-mail address is required.');
      customer = buildCustomer({ email: address, name: null, phone: null, description: null, metadata: {} });
      this.state.customers[customer.id] = customer;
    }
    const now = nowSeconds();
    const periodEnd = addMonths(now, 1);
    const subscriptionData = this.state.subscriptionData[sessionId] ?? {};
    const subscriptionId = newId('sub_');
    const items = (this.state.lineItems[sessionId] ?? []).map((item) =>
      this.subscriptionItem(subscriptionId, item, now, periodEnd),
    );
    const subscription: Subscription = {
      id: subscriptionId,
      object: 'subscription',
      application: null,
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: now,
      billing_cycle_anchor_config: null,
      billing_thresholds: null,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: now,
      currency: session.currency,
      current_period_end: periodEnd,
      current_period_start: now,
      customer: customer.id,
      days_until_due: null,
      default_payment_method: `pm_${newId('', 24)}`,
      default_source: null,
      description: subscriptionData.description ?? null,
      discounts: [],
      ended_at: null,
      invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
      items: {
        object: 'list',
        data: items,
        has_more: false,
        total_count: items.length,
        url: `/v1/subscription_items?subscription=${subscriptionId}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: { ...(subscriptionData.metadata ?? {}) },
      next_pending_invoice_item_invoice: null,
      on_behalf_of: null,
      pause_collection: null,
      payment_settings: {
        payment_method_options: null,
        payment_method_types: null,
        save_default_payment_method: 'off',
      },
      pending_setup_intent: null,
      pending_update: null,
      schedule: null,
      start_date: now,
      status: 'active',
      test_clock: null,
      transfer_data: null,
      trial_end: null,
      trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
      trial_start: null,
    };
    const invoice = this.createInvoice(subscription, 'subscription_create', 'paid');
    subscription.latest_invoice = invoice.id;
    this.state.subscriptions[subscription.id] = subscription;

    session.status = 'complete';
    session.payment_status = 'paid';
    session.customer = customer.id;
    session.customer_details = customerDetails(customer);
    session.subscription = subscription.id;
    session.invoice = invoice.id;
    session.url = null;
    this.save();

    const sent = [
      this.emit('checkout.session.completed', session),
      this.emit('customer.subscription.created', subscription),
      this.emit('invoice.paid', invoice),
    ];
    await Promise.all(sent.map((s) => s.delivered));
    return session;
  }

  subscriptionItem(subscriptionId: string, item: LineItemInput, start: number, end: number): SubscriptionItem {
    const price = this.prices.get(item.price);
    if (!price) throw new Error(`No such price: '${item.price}'`);
    return {
      id: newId('si_', 14),
      object: 'subscription_item',
      billing_thresholds: null,
      created: start,
      current_period_end: end,
      current_period_start: start,
      discounts: [],
      metadata: {},
      plan: {
        id: price.id,
        object: 'plan',
        active: true,
        amount: price.unit_amount,
        currency: price.currency,
        interval: price.recurring.interval,
        interval_count: 1,
        livemode: false,
        product: price.product,
        usage_type: 'licensed',
      },
      price: structuredClone(price),
      quantity: item.quantity,
      subscription: subscriptionId,
      tax_rates: [],
    };
  }

  createInvoice(subscription: Subscription, billingReason: string, status: 'paid' | 'open'): Invoice {
    const now = nowSeconds();
    const customer = this.state.customers[subscription.customer];
    const total = subscription.items.data.reduce((sum, item) => sum + item.price.unit_amount * item.quantity, 0);
    const id = newId('in_');
    const paid = status === 'paid';
    const lines = subscription.items.data.map((item) => ({
      id: newId('il_'),
      object: 'line_item',
      amount: item.price.unit_amount * item.quantity,
      currency: item.price.currency,
      description: `${item.quantity} × ${this.products.get(item.price.product)?.name ?? item.price.id}`,
      discount_amounts: [],
      discountable: true,
      discounts: [],
      invoice: id,
      livemode: false,
      metadata: {},
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
      period: { end: subscription.current_period_end, start: subscription.current_period_start },
      pricing: {
        price_details: { price: item.price.id, product: item.price.product },
        type: 'price_details',
        unit_amount_decimal: String(item.price.unit_amount),
      },
      quantity: item.quantity,
      subscription: subscription.id,
      taxes: [],
    }));
    const invoice: Invoice = {
      id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Castloop (sandbox)',
      amount_due: total,
      amount_overpaid: 0,
      amount_paid: paid ? total : 0,
      amount_remaining: paid ? 0 : total,
      attempt_count: 1,
      attempted: true,
      auto_advance: !paid,
      billing_reason: billingReason,
      collection_method: 'charge_automatically',
      created: now,
      currency: subscription.currency,
      customer: subscription.customer,
      customer_email: customer?.email ?? null,
      customer_name: customer?.name ?? null,
      description: null,
      due_date: null,
      hosted_invoice_url: null,
      invoice_pdf: null,
      lines: {
        object: 'list',
        data: lines,
        has_more: false,
        total_count: lines.length,
        url: `/v1/invoices/${id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: paid ? null : now + 3 * 86400,
      number: `${customer?.invoice_prefix ?? 'LOCAL'}-${String(Object.keys(this.state.invoices).length + 1).padStart(4, '0')}`,
      paid,
      parent: {
        quote_details: null,
        subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
        type: 'subscription_details',
      },
      period_end: subscription.current_period_end,
      period_start: subscription.current_period_start,
      status,
      status_transitions: {
        finalized_at: now,
        marked_uncollectible_at: null,
        paid_at: paid ? now : null,
        voided_at: null,
      },
      subscription: subscription.id,
      subtotal: total,
      total,
    };
    this.state.invoices[invoice.id] = invoice;
    return invoice;
  }

  // --- subscription changes -----------------------------------------------------------------

  /** Cancel at period end (or undo it): sends customer.subscription.updated. */
  async setCancelAtPeriodEnd(
    subscriptionId: string,
    value: boolean,
    reason: string | null = 'cancellation_requested',
  ): Promise<Subscription> {
    const sub = this.requireSubscription(subscriptionId);
    const previous = {
      cancel_at_period_end: sub.cancel_at_period_end,
      cancel_at: sub.cancel_at,
      canceled_at: sub.canceled_at,
      cancellation_details: sub.cancellation_details,
    };
    sub.cancel_at_period_end = value;
    sub.cancel_at = value ? sub.current_period_end : null;
    sub.canceled_at = value ? nowSeconds() : null;
    sub.cancellation_details = { comment: null, feedback: null, reason: value ? reason : null };
    this.save();
    await this.emit('customer.subscription.updated', sub, previous).delivered;
    return sub;
  }

  /** Ends the subscription now: customer.subscription.updated (status canceled), then customer.subscription.deleted. */
  async cancelNow(subscriptionId: string, reason = 'cancellation_requested'): Promise<Subscription> {
    const sub = this.requireSubscription(subscriptionId);
    if (sub.status === 'canceled') return sub;
    const now = nowSeconds();
    const previous = { status: sub.status, canceled_at: sub.canceled_at, ended_at: sub.ended_at };
    sub.status = 'canceled';
    sub.canceled_at = sub.canceled_at ?? now;
    sub.ended_at = now;
    sub.cancellation_details = { comment: null, feedback: null, reason };
    this.save();
    const updated = this.emit('customer.subscription.updated', sub, previous);
    const deleted = this.emit('customer.subscription.deleted', sub);
    await Promise.all([updated.delivered, deleted.delivered]);
    return sub;
  }

  /** Sandbox helper: the renewal payment fails (invoice.payment_failed, subscription past_due). */
  async paymentFailed(
    subscriptionId: string,
  ): Promise<{ subscription: Subscription; invoice: Invoice; events: string[] }> {
    const sub = this.requireSubscription(subscriptionId);
    if (sub.status === 'canceled') throw new Error(`Subscription ${sub.id} is canceled.`);
    const invoice = this.createInvoice(sub, 'subscription_cycle', 'open');
    const previous = { status: sub.status, latest_invoice: sub.latest_invoice };
    sub.status = 'past_due';
    sub.latest_invoice = invoice.id;
    this.save();
    const failed = this.emit('invoice.payment_failed', invoice);
    const updated = this.emit('customer.subscription.updated', sub, previous);
    await Promise.all([failed.delivered, updated.delivered]);
    return { subscription: sub, invoice, events: [failed.event.id, updated.event.id] };
  }

  /**
   * Sandbox helper: the current period ends now. A subscription set to cancel at period end is
   * deleted; otherwise it renews (paid invoice, new period, status active).
   */
  async advancePeriod(subscriptionId: string): Promise<{ subscription: Subscription; events: string[] }> {
    const sub = this.requireSubscription(subscriptionId);
    if (sub.status === 'canceled') throw new Error(`Subscription ${sub.id} is canceled.`);
    if (sub.cancel_at_period_end) {
      const now = nowSeconds();
      sub.status = 'canceled';
      sub.ended_at = now;
      this.save();
      const deleted = this.emit('customer.subscription.deleted', sub);
      await deleted.delivered;
      return { subscription: sub, events: [deleted.event.id] };
    }
    const previous = {
      status: sub.status,
      current_period_start: sub.current_period_start,
      current_period_end: sub.current_period_end,
      latest_invoice: sub.latest_invoice,
    };
    const start = nowSeconds();
    const end = addMonths(start, 1);
    sub.current_period_start = start;
    sub.current_period_end = end;
    for (const item of sub.items.data) {
      item.current_period_start = start;
      item.current_period_end = end;
    }
    sub.status = 'active';
    const invoice = this.createInvoice(sub, 'subscription_cycle', 'paid');
    sub.latest_invoice = invoice.id;
    this.save();
    const paid = this.emit('invoice.paid', invoice);
    const updated = this.emit('customer.subscription.updated', sub, previous);
    await Promise.all([paid.delivered, updated.delivered]);
    return { subscription: sub, events: [paid.event.id, updated.event.id] };
  }

  requireSubscription(id: string): Subscription {
    const sub = this.state.subscriptions[id];
    if (!sub) throw new Error(`No such subscription: '${id}'`);
    return sub;
  }
}
