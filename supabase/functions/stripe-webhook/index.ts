// `stripe-webhook`: Stripe's signed events are the only way Castloop learns about payments.
// No JWT (verify_jwt = false): the Stripe-Signature header authenticates the request.
import { requireSettings } from '../_shared/config.ts';
import { serveFunction } from '../_shared/serve.ts';
import { handleStripeWebhook } from './handler.ts';

requireSettings('stripe-webhook');
serveFunction(handleStripeWebhook);
