// A second live subscription for an account that already has one (two checkouts paid, issue 39
// item 8): Castloop keeps the one it holds, cancels the other in Stripe and refunds what that one
// charged (its latest invoice), and records it in private.second_subscriptions for operators.
// Every Stripe call is safe to repeat (idempotency keys; what is already refunded is not
// refunded again), so a failure answers 5xx and Stripe's next delivery finishes the job.
import type Stripe from 'stripe';
import { db } from '../_shared/db.ts';
import { isLiveSubscription, stripeClient } from '../_shared/stripe.ts';
import { idOf } from './subscription-state.ts';

interface Settlement {
  refundedCents: number;
  refundIds: string[];
}

/** Refunds what is left of each payment of `invoiceId`; answers every refund of them. */
async function refundInvoice(stripe: Stripe, invoiceId: string, subscriptionId: string): Promise<Settlement> {
  const settlement: Settlement = { refundedCents: 0, refundIds: [] };
  for await (const payment of stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 100 })) {
    const intent = idOf(payment.payment.payment_intent);
    if (!intent) continue;
    const earlier = (await stripe.refunds.list({ payment_intent: intent, limit: 100 })).data;
    const left = (payment.amount_paid ?? 0) - earlier.reduce((sum, refund) => sum + refund.amount, 0);
    const made =
      left > 0
        ? [
            await stripe.refunds.create(
              { payment_intent: intent, amount: left, reason: 'duplicate', metadata: { castloop_second_subscription: subscriptionId } },
              { idempotencyKey: `castloop-second-subscription-refund-${intent}-${left}` },
            ),
          ]
        : [];
    for (const refund of [...earlier, ...made]) {
      settlement.refundedCents += refund.amount;
      settlement.refundIds.push(refund.id);
    }
  }
  return settlement;
}

/** Cancels the subscription in Stripe (if it is not over yet) and refunds its latest invoice. */
async function cancelAndRefund(subscriptionId: string): Promise<Settlement> {
  const stripe = stripeClient();
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  if (subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired') {
    await stripe.subscriptions.cancel(
      subscriptionId,
      { cancellation_details: { comment: 'A second subscription for one Castloop account: canceled and refunded.' } },
      { idempotencyKey: `castloop-second-subscription-cancel-${subscriptionId}` },
    );
  }
  const invoiceId = idOf(subscription.latest_invoice);
  return invoiceId ? refundInvoice(stripe, invoiceId, subscriptionId) : { refundedCents: 0, refundIds: [] };
}

/**
 * Whether `subscriptionId` is a second subscription of the customer's account, as Stripe has
 * both now: the one Castloop holds and this one both live. The stored row can be behind Stripe
 * (the held one ended, its event not here yet): then this one is not a second one. Noted in
 * private.second_subscriptions when it is.
 */
async function isSecondSubscription(subscriptionId: string, customerId: string): Promise<boolean> {
  const [row] = await db()<{ kept: string | null }[]>`
    select stripe_subscription_id as kept from public.subscriptions where stripe_customer_id = ${customerId}`;
  if (!row?.kept || row.kept === subscriptionId) return false;
  const stripe = stripeClient();
  const [kept, second] = await Promise.all([stripe.subscriptions.retrieve(row.kept), stripe.subscriptions.retrieve(subscriptionId)]);
  if (!isLiveSubscription(kept.status) || !isLiveSubscription(second.status)) return false;
  await db()`select private.note_second_subscription(${subscriptionId}, ${customerId}, ${row.kept})`;
  return true;
}

/**
 * Settles a subscription record_stripe_event answered 'second_subscription_unsettled' for:
 * answers false when Stripe says it is not one after all (the caller records the event with
 * Stripe's state), true once it is canceled, refunded and recorded as settled.
 */
export async function settleSecondSubscription(subscriptionId: string, customerId: string): Promise<boolean> {
  // Noted by an earlier delivery whose cancel or refund failed: finish it.
  const [noted] = await db()`select 1 from private.second_subscriptions where stripe_subscription_id = ${subscriptionId}`;
  if (!noted && !(await isSecondSubscription(subscriptionId, customerId))) return false;
  const { refundedCents, refundIds } = await cancelAndRefund(subscriptionId);
  await db()`select private.settle_second_subscription(${subscriptionId}, ${refundedCents}::integer, ${refundIds}::text[])`;
  console.warn(`stripe-webhook: ${subscriptionId} was a second subscription of ${customerId}: canceled, ${refundedCents} cents refunded`);
  return true;
}
