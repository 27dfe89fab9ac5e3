// When a finished checkout proves who the returning visitor is (spec section 4, made safe by
// docs/security.md): complete and paid, created in the last 24 hours, for this e-mail,
// and naming the user it was made for. Used once (enforced by the database).

export const RECOVERY_WINDOW_SECONDS = 24 * 60 * 60;

/** The fields of a Stripe Checkout Session this rule reads. */
export interface CheckoutFacts {
  status: string | null;
  payment_status: string;
  created: number;
  customer_email: string | null;
  customer_details?: { email?: string | null } | null;
  metadata?: Record<string, string> | null;
  client_reference_id: string | null;
}

/** The user the checkout was made for (as create-checkout-session names them), if any. */
export function checkoutUserId(checkout: Pick<CheckoutFacts, 'metadata' | 'client_reference_id'>): string | null {
  return checkout.metadata?.user_id ?? checkout.client_reference_id ?? null;
}

/** The user id the checkout was made for, or null when it does not prove the visitor's identity. */
export function recoverableUserId(checkout: CheckoutFacts, email: string, nowSeconds: number): string | null {
  const paid = checkout.status === 'complete' && (checkout.payment_status === 'paid' || checkout.payment_status === 'no_payment_required');
  const age = nowSeconds - checkout.created;
  const fresh = age >= 0 && age <= RECOVERY_WINDOW_SECONDS;
  const checkoutEmail = (checkout.customer_details?.email ?? checkout.customer_email ?? '').trim().toLowerCase();
  const userId = checkoutUserId(checkout);
  if (!paid || !fresh || !userId || !checkoutEmail || checkoutEmail !== email.trim().toLowerCase()) return null;
  return userId;
}
