// The billing simulation: what Stripe does on its own as time passes or a customer acts on a
// hosted page. Paying a checkout session, renewing or failing a period's payment, changing plan
// (at once, or scheduled for the period's end), cancelling.
// Each step changes the account's data and sends the events Stripe sends for it, in its order.
import type { CheckoutSession } from './resources/checkout-sessions.ts';
import { addCustomer, buildCustomer, customerDetails, type Customer } from './resources/customers.ts';
import { buildInvoice, finalizeInvoice, markPaid, markPaymentFailed, type Invoice } from './resources/invoices.ts';
import { buildProrationItem } from './resources/invoice-items.ts';
import { recordInvoicePayment } from './resources/payments.ts';
import { changeWaitsForPeriodEnd, type ProrationBehavior, type SubscriptionUpdateFeature } from './resources/portal-configurations.ts';
import { buildScheduleAtPeriodEnd, markCanceled, markReleased, nextPhase, type SubscriptionSchedule } from './resources/subscription-schedules.ts';
import {
  buildSubscription,
  buildSubscriptionItem,
  periodOf,
  prorationOf,
  setPeriod,
  type Subscription,
  type SubscriptionItem,
} from './resources/subscriptions.ts';
import type { StripeSandbox } from './sandbox.ts';
import { addMonths, newId, nowSeconds, type Json } from './primitives.ts';

export class BillingSimulation {
  constructor(private readonly sandbox: StripeSandbox) {}

  private get data() {
    return this.sandbox.state.data;
  }

  /** Emits the events in order, waits until each is delivered, and returns their ids. */
  private async send(events: Array<[type: string, object: Json, previous?: Json]>): Promise<string[]> {
    const sent = events.map(([type, object, previous]) => this.sandbox.events.emit(type, object, previous));
    await Promise.all(sent.map((s) => s.delivered));
    return sent.map((s) => s.event.id);
  }

  /**
   * Invoices the subscription's current period (unless `period` is false) with its pending
   * invoice items, and collects it. Returns the invoice and the
   * events to send, each with the invoice as it was then: invoice.created (draft),
   * invoice.finalized, then invoice.paid and invoice.payment_succeeded, or invoice.payment_failed.
   */
  private invoicePeriod(subscription: Subscription, billingReason: string, pays: boolean, period = true) {
    const invoice = buildInvoice(this.sandbox, subscription, billingReason, period);
    const events: Array<[string, Json]> = [['invoice.created', structuredClone(invoice)]];
    finalizeInvoice(this.sandbox, invoice);
    events.push(['invoice.finalized', structuredClone(invoice)]);
    if (pays) {
      markPaid(invoice);
      recordInvoicePayment(this.sandbox, invoice);
      events.push(['invoice.paid', structuredClone(invoice)], ['invoice.payment_succeeded', structuredClone(invoice)]);
    } else {
      markPaymentFailed(invoice);
      events.push(['invoice.payment_failed', structuredClone(invoice)]);
    }
    return { invoice, events };
  }

  /**
   * Completes an open checkout session, sending what Stripe sends (in its usual order):
   * customer.created (a new customer), customer.subscription.created, the first invoice's
   * events, checkout.session.completed; resolves after their delivery attempts. A session in
   * payment mode is paid once instead (payOnce).
   */
  async pay(sessionId: string, email: string | null): Promise<CheckoutSession> {
    const session = this.data.checkoutSessions[sessionId];
    if (!session) throw new Error(`No such checkout session: ${sessionId}`);
    if (session.status !== 'open') throw new Error(`This checkout session is ${session.status}.`);
    let customer = session.customer ? this.data.customers[session.customer] : undefined;
    if (!customer) {
      const address = session.customer_email ?? email;
      if (!address) throw new Error('An e-mail address is required.');
      customer = addCustomer(
        this.sandbox,
        buildCustomer({ email: address, name: null, phone: null, description: null, metadata: {} }),
      );
    }
    if (session.mode === 'payment') return this.payOnce(session, customer);
    const now = nowSeconds();
    const subscriptionData = this.data.subscriptionData[sessionId] ?? {};
    const subscription = buildSubscription(this.sandbox, {
      customer: customer.id,
      currency: session.currency,
      items: this.data.lineItems[sessionId] ?? [],
      period: { start: now, end: addMonths(now, 1) },
      description: subscriptionData.description ?? null,
      metadata: subscriptionData.metadata ?? {},
    });
    this.data.subscriptions[subscription.id] = subscription;
    const { invoice, events } = this.invoicePeriod(subscription, 'subscription_create', true);
    subscription.latest_invoice = invoice.id;

    session.status = 'complete';
    session.payment_status = 'paid';
    session.customer = customer.id;
    session.customer_details = customerDetails(customer);
    session.subscription = subscription.id;
    session.invoice = invoice.id;
    session.url = null;
    this.sandbox.state.save();

    await this.send([['customer.subscription.created', subscription], ...events, ['checkout.session.completed', session]]);
    return session;
  }

  /**
   * Completes an open session in payment mode (a one-time price, the extra episode): its payment
   * intent succeeds and checkout.session.completed is sent with payment_status 'paid'. No invoice
   * or subscription is made (Stripe's default for payment mode without invoice_creation).
   */
  private async payOnce(session: CheckoutSession, customer: Customer): Promise<CheckoutSession> {
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: newId('pi_', 24),
      customer: customer.id,
      customer_details: customerDetails(customer),
      url: null,
    });
    this.sandbox.state.save();
    await this.send([['checkout.session.completed', session]]);
    return session;
  }

  /**
   * Moves the item to another price now (the same item id, as Stripe keeps it) and prorates as
   * `behavior` says: create_prorations leaves two pending invoice items for the next invoice
   * (the unused time of the old price, the remaining time of the new); always_invoice invoices
   * them at once; none leaves the rest of the period as paid. With `anchor` 'now' a new period
   * starts now and is invoiced at once: the new price in full, less the old price's unused time
   * (unless `behavior` is none). Returns the events to send before customer.subscription.updated;
   * the caller sends that one.
   */
  priceChange(
    sub: Subscription,
    item: SubscriptionItem,
    priceId: string,
    behavior: ProrationBehavior,
    anchor: 'now' | 'unchanged' | null = null,
  ): Array<[string, Json]> {
    const price = this.sandbox.state.prices.get(priceId);
    if (!price) throw new Error(`No such price: '${priceId}'`);
    if (item.price.id === priceId) return [];
    const now = nowSeconds();
    const events: Array<[string, Json]> = [];
    const restarts = anchor === 'now';
    if (behavior !== 'none') {
      const { unused, remaining, period } = prorationOf(sub, item, price, now);
      const common = { customer: sub.customer, subscription: sub.id, subscriptionItem: item.id, quantity: item.quantity, period };
      const credit = buildProrationItem(this.sandbox, { ...common, kind: 'Unused', price: item.price, amount: unused });
      events.push(['invoiceitem.created', structuredClone(credit)]);
      // A new period is billed in full below, so the old period's rest is not charged at the new price.
      if (!restarts) {
        const charge = buildProrationItem(this.sandbox, { ...common, kind: 'Remaining', price, amount: remaining });
        events.push(['invoiceitem.created', structuredClone(charge)]);
      }
    }
    const replacement = buildSubscriptionItem(this.sandbox, sub.id, { price: priceId, quantity: item.quantity }, periodOf(sub));
    Object.assign(item, { price: replacement.price, plan: replacement.plan });
    if (restarts) {
      setPeriod(sub, { start: now, end: addMonths(now, 1) });
      sub.billing_cycle_anchor = now;
    }
    if (restarts || behavior === 'always_invoice') {
      const invoiced = this.invoicePeriod(sub, 'subscription_update', true, restarts);
      sub.latest_invoice = invoiced.invoice.id;
      events.push(...invoiced.events);
    }
    return events;
  }

  /**
   * A plan change from the hosted portal, as its configuration says: scheduled for the period's
   * end when a `schedule_at_period_end` condition holds (scheduleChange), otherwise the price
   * change now, then customer.subscription.updated with the old items.
   */
  async changePlan(subscriptionId: string, priceId: string, feature: SubscriptionUpdateFeature): Promise<Subscription> {
    const sub = this.requireSubscription(subscriptionId);
    const item = sub.items.data[0];
    if (sub.status === 'canceled' || !item || sub.schedule) throw new Error(`Subscription ${sub.id} cannot change plan.`);
    const price = this.sandbox.state.prices.get(priceId);
    if (!price) throw new Error(`No such price: '${priceId}'`);
    if (changeWaitsForPeriodEnd(feature, item.price, price, item.quantity)) return this.scheduleChange(sub, priceId);
    const previous: Json = { items: structuredClone(sub.items), latest_invoice: sub.latest_invoice };
    if (feature.billing_cycle_anchor === 'now') previous.billing_cycle_anchor = sub.billing_cycle_anchor;
    const events = this.priceChange(sub, item, priceId, feature.proration_behavior, feature.billing_cycle_anchor);
    this.sandbox.state.save();
    await this.send([...events, ['customer.subscription.updated', sub, previous]]);
    return sub;
  }

  /**
   * The portal's change at the period's end: a subscription schedule from the subscription
   * (its current price until the period ends, then the new one); sends
   * subscription_schedule.created, then customer.subscription.updated with the schedule.
   */
  private async scheduleChange(sub: Subscription, priceId: string): Promise<Subscription> {
    const schedule = buildScheduleAtPeriodEnd(this.sandbox, sub, priceId);
    sub.schedule = schedule.id;
    this.sandbox.state.save();
    await this.send([
      ['subscription_schedule.created', schedule],
      ['customer.subscription.updated', sub, { schedule: null }],
    ]);
    return sub;
  }

  /**
   * Releases a schedule: its subscription keeps its current price and renews as usual (a
   * scheduled change is dropped). Sends subscription_schedule.released, then
   * customer.subscription.updated without the schedule.
   */
  async releaseSchedule(scheduleId: string): Promise<SubscriptionSchedule> {
    const schedule = this.data.subscriptionSchedules[scheduleId];
    if (!schedule) throw new Error(`No such subscription schedule: '${scheduleId}'`);
    const sub = schedule.subscription ? this.data.subscriptions[schedule.subscription] : undefined;
    markReleased(schedule);
    const events: Array<[string, Json, Json?]> = [['subscription_schedule.released', schedule]];
    if (sub) {
      sub.schedule = null;
      events.push(['customer.subscription.updated', sub, { schedule: scheduleId }]);
    }
    this.sandbox.state.save();
    await this.send(events);
    return schedule;
  }

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
    sub.cancel_at = value ? periodOf(sub).end : null;
    sub.canceled_at = value ? nowSeconds() : null;
    sub.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason: value ? reason : null };
    this.sandbox.state.save();
    await this.send([['customer.subscription.updated', sub, previous]]);
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
    sub.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason };
    // Its schedule ends with it.
    const schedule = sub.schedule ? this.data.subscriptionSchedules[sub.schedule] : undefined;
    const scheduleEvents: Array<[string, Json]> = [];
    if (schedule?.status === 'active') {
      markCanceled(schedule);
      scheduleEvents.push(['subscription_schedule.canceled', schedule]);
    }
    this.sandbox.state.save();
    await this.send([['customer.subscription.updated', sub, previous], ['customer.subscription.deleted', sub], ...scheduleEvents]);
    return sub;
  }

  /** The renewal payment fails: the invoice's events (ending in invoice.payment_failed), then the subscription is past_due. */
  async paymentFailed(
    subscriptionId: string,
  ): Promise<{ subscription: Subscription; invoice: Invoice; events: string[] }> {
    const sub = this.requireSubscription(subscriptionId);
    if (sub.status === 'canceled') throw new Error(`Subscription ${sub.id} is canceled.`);
    const previous = { status: sub.status, latest_invoice: sub.latest_invoice };
    const { invoice, events } = this.invoicePeriod(sub, 'subscription_cycle', false);
    sub.status = 'past_due';
    sub.latest_invoice = invoice.id;
    this.sandbox.state.save();
    const sent = await this.send([...events, ['customer.subscription.updated', sub, previous]]);
    return { subscription: sub, invoice, events: sent };
  }

  /**
   * The current period ends now. A subscription set to cancel at period end is deleted;
   * otherwise it renews: a new period, its invoice paid, status active. A schedule's next phase
   * starts with the new period (its price is the one invoiced; subscription_schedule.updated
   * follows); a schedule whose last phase ends releases the subscription first.
   */
  async advancePeriod(subscriptionId: string): Promise<{ subscription: Subscription; events: string[] }> {
    const sub = this.requireSubscription(subscriptionId);
    if (sub.status === 'canceled') throw new Error(`Subscription ${sub.id} is canceled.`);
    if (sub.cancel_at_period_end) {
      sub.status = 'canceled';
      sub.ended_at = nowSeconds();
      this.sandbox.state.save();
      return { subscription: sub, events: await this.send([['customer.subscription.deleted', sub]]) };
    }
    const previous: Json = {
      status: sub.status,
      items: structuredClone(sub.items),
      latest_invoice: sub.latest_invoice,
    };
    const start = nowSeconds();
    const end = addMonths(start, 1);
    const before: Array<[string, Json, Json?]> = [];
    const after: Array<[string, Json, Json?]> = [];
    const schedule = sub.schedule ? this.data.subscriptionSchedules[sub.schedule] : undefined;
    if (schedule) {
      const next = nextPhase(schedule);
      if (next) {
        const scheduleBefore = { current_phase: schedule.current_phase, phases: structuredClone(schedule.phases) };
        // The sandbox's renewal is now, whatever the period said: the phases follow it.
        for (const phase of schedule.phases) if (phase.end_date === next.start_date) phase.end_date = start;
        Object.assign(next, { start_date: start, end_date: end });
        schedule.current_phase = { start_date: start, end_date: end };
        const item = sub.items.data[0];
        const price = this.sandbox.state.prices.get(next.items[0].price);
        if (item && price) {
          const replacement = buildSubscriptionItem(this.sandbox, sub.id, { price: price.id, quantity: item.quantity }, { start, end });
          Object.assign(item, { price: replacement.price, plan: replacement.plan });
        }
        after.push(['subscription_schedule.updated', schedule, scheduleBefore]);
      } else {
        markReleased(schedule);
        previous.schedule = schedule.id;
        sub.schedule = null;
        before.push(['subscription_schedule.released', schedule]);
      }
    }
    setPeriod(sub, { start, end });
    sub.status = 'active';
    const { invoice, events } = this.invoicePeriod(sub, 'subscription_cycle', true);
    sub.latest_invoice = invoice.id;
    this.sandbox.state.save();
    const sent = await this.send([...before, ...events, ['customer.subscription.updated', sub, previous], ...after]);
    return { subscription: sub, events: sent };
  }

  requireSubscription(id: string): Subscription {
    const sub = this.data.subscriptions[id];
    if (!sub) throw new Error(`No such subscription: '${id}'`);
    return sub;
  }
}
