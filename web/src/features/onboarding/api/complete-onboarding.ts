// POST /api/onboarding/complete: the server checks the required fields and marks onboarding done.
import { accountSchema, type Account } from '@domain/account';
import { apiRequest } from '@/lib/api-client';

export async function completeOnboarding(userId: string): Promise<Account> {
  const account = await apiRequest<unknown>('POST', '/api/onboarding/complete', {
    airtableRecordId: userId,
    data: { userId, completedAt: new Date().toISOString() },
  });
  return accountSchema.parse(account);
}

