// POST /api/onboarding/complete: the server checks the required fields and marks onboarding done.
import type { Account } from '@domain/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { currentAccountKey } from '@/lib/current-account';

export function completeOnboarding(userId: string): Promise<Account> {
  return apiRequest<Account>('POST', '/api/onboarding/complete', {
    airtableRecordId: userId,
    data: { userId, completedAt: new Date().toISOString() },
  });
}

export function useCompleteOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeOnboarding,
    onSuccess: (account) => queryClient.setQueryData(currentAccountKey, account),
  });
}
