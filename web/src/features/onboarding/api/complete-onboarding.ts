// POST /api/onboarding/complete: the server checks the required fields and marks onboarding done.
import { accountSchema, type Account } from '@domain/account';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

function completeOnboarding(userId: string): Promise<Account> {
  return apiRequest('POST', '/api/onboarding/complete', accountSchema, {
    body: { airtableRecordId: userId, data: { userId, completedAt: new Date().toISOString() } },
  });
}

export function useCompleteOnboarding() {
  return useMutation({ mutationFn: completeOnboarding });
}
