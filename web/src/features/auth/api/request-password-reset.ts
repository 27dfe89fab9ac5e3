// POST /api/auth/forgot-password: the server answers alike whether or not the account exists.
import type { ForgotPasswordPayload } from '@domain/auth-schemas';
import { useMutation } from '@tanstack/react-query';
import { apiRequest, ignoredAnswer } from '@/lib/api-client';

async function requestPasswordReset(payload: ForgotPasswordPayload): Promise<void> {
  await apiRequest('POST', '/api/auth/forgot-password', ignoredAnswer, { body: payload });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
