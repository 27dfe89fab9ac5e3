// POST /api/auth/recover-session {session_id} while signed in: uses the checkout session up
// without a new session (the request carries the token). Called by use-checkout-return.ts once.
import { apiRequest, ignoredAnswer } from '@/lib/api-client';

/** Failures are only logged (spec section 8). */
export async function claimCheckoutSession(sessionId: string): Promise<void> {
  try {
    await apiRequest('POST', '/api/auth/recover-session', ignoredAnswer, { body: { session_id: sessionId } });
  } catch (error) {
    console.error('Claiming the checkout session failed', error);
  }
}
