// POST /api/auth/recover-session {email, session_id} when signed out: the server answers a
// session for the paid checkout's account, which the Auth client then holds. Called by
// use-checkout-return.ts once.
import { accountSchema } from '@domain/account';
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';
import { authClient } from '@/lib/supabase';

const recoveredSession = z.object({
  user: accountSchema,
  session: z.object({ access_token: z.string(), refresh_token: z.string() }),
});

/** True when the session was recovered; failures are only logged (spec section 8). */
export async function recoverSession(email: string, sessionId: string): Promise<boolean> {
  try {
    const recovered = await apiRequest('POST', '/api/auth/recover-session', recoveredSession, { body: { email, session_id: sessionId } });
    const { error } = await (await authClient()).setSession(recovered.session);
    if (error) throw error;
    return true;
  } catch (error) {
    console.error('Session recovery failed', error);
    return false;
  }
}
