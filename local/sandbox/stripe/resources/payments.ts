// The money an invoice collected and what was given back: an invoice payment (with its payment
// intent) for each paid invoice that charged something, and refunds of them. No card, charge
// or balance objects: a refund names the payment intent and a charge id only.
import type { FormObject } from '../../form.ts';
import { checkAllowed, fail, int, listParams, mergeMetadata, metadataParam, noSuch, paginate, str, type Route } from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { newId, nowSeconds, type Json } from '../primitives.ts';
import type { Invoice } from './invoices.ts';

export interface InvoicePayment extends Json {
  id: string;
  object: 'invoice_payment';
  amount_paid: number;
  currency: string;
  invoice: string;
  payment: { type: 'payment_intent'; payment_intent: string };
  status: 'paid';
}

export interface Refund extends Json {
  id: string;
  object: 'refund';
  amount: number;
  created: number;
  payment_intent: string;
  status: 'succeeded';
}

/** Records what a paid invoice collected (nothing when it charged nothing, e.g. paid by credit). */
export function recordInvoicePayment(sandbox: StripeSandbox, invoice: Invoice): void {
  const amount = invoice.amount_paid;
  if (amount <= 0) return;
  const paidAt = invoice.status_transitions.paid_at ?? nowSeconds();
  const payment: InvoicePayment = {
    id: newId('inpay_'),
    object: 'invoice_payment',
    amount_paid: amount,
    amount_requested: amount,
    created: paidAt,
    currency: invoice.currency as string,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: newId('pi_') },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: paidAt },
  };
  sandbox.state.data.invoicePayments[payment.id] = payment;
}

const reasons = ['duplicate', 'fraudulent', 'requested_by_customer'];

function createRefund(sandbox: StripeSandbox, params: FormObject): Json {
  checkAllowed(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'instructions_email', 'origin', 'refund_application_fee', 'reverse_transfer']);
  const data = sandbox.state.data;
  const intent = str(params, 'payment_intent');
  if (!intent) fail(400, 'One of the following params should be provided for this request: payment_intent or charge.', 'parameter_missing', 'payment_intent');
  const payment = Object.values(data.invoicePayments).find((p) => p.payment.payment_intent === intent);
  if (!payment) noSuch('payment_intent', intent, 'payment_intent');
  const refunded = Object.values(data.refunds)
    .filter((r) => r.payment_intent === intent)
    .reduce((sum, r) => sum + r.amount, 0);
  const left = payment.amount_paid - refunded;
  if (left <= 0) fail(400, `Charge for payment intent ${intent} has already been refunded.`, 'charge_already_refunded');
  const amount = int(params.amount, 'amount', 1, left) ?? left;
  const reason = str(params, 'reason');
  if (reason !== null && !reasons.includes(reason))
    fail(400, `Invalid reason: must be one of ${reasons.join(', ')}`, 'parameter_invalid_string', 'reason');
  const invoice = data.invoices[payment.invoice];
  const metadata = metadataParam(params.metadata, 'metadata');
  const refund: Refund = {
    id: newId('re_'),
    object: 'refund',
    amount,
    balance_transaction: null,
    charge: `ch_${intent.slice(3)}`,
    created: nowSeconds(),
    currency: payment.currency,
    customer: invoice?.customer ?? null,
    customer_account: null,
    metadata: mergeMetadata({}, metadata),
    payment_intent: intent,
    payment_method: null,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  data.refunds[refund.id] = refund;
  sandbox.state.save();
  void sandbox.events.emit('refund.created', refund).delivered;
  return refund;
}

export const paymentRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/invoice_payments$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'invoice', 'status', 'payment', 'created']);
      const invoice = str(p, 'invoice');
      const status = str(p, 'status');
      const payments = Object.values(s.state.data.invoicePayments).filter(
        (x) => (!invoice || x.invoice === invoice) && (!status || x.status === status),
      );
      return paginate(payments, p, '/v1/invoice_payments');
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/invoice_payments\/([^/]+)$/,
    handler: (s, _p, [id]) => s.state.data.invoicePayments[id] ?? noSuch('invoice_payment', id),
  },
  { method: 'POST', pattern: /^\/v1\/refunds$/, handler: (s, p) => createRefund(s, p) },
  {
    method: 'GET',
    pattern: /^\/v1\/refunds$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'payment_intent', 'charge', 'created']);
      const intent = str(p, 'payment_intent');
      return paginate(
        Object.values(s.state.data.refunds).filter((r) => !intent || r.payment_intent === intent),
        p,
        '/v1/refunds',
      );
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/refunds\/([^/]+)$/,
    handler: (s, _p, [id]) => s.state.data.refunds[id] ?? noSuch('refund', id),
  },
];
