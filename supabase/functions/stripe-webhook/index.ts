// `stripe-webhook`: Stripe's signed events are the only way Castloop learns about payments.
// No JWT (verify_jwt = false): the Stripe-Signature header authenticates the request.
import { handleStripeWebhook } from './handler.ts';

Deno.serve(handleStripeWebhook);
