// POST /api/create-plan-change-session: the billing portal opened on changing the plan (choosing
// one, or confirming `tier`); the browser goes there and Stripe brings it back to the dashboard.
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { portalAnswer } from './open-portal';

function createPlanChangeSession(tier?: string) {
  return apiRequest('POST', '/api/create-plan-change-session', portalAnswer, { body: tier === undefined ? {} : { tier } });
}

export function useChangePlan() {
  return useMutation({
    mutationFn: createPlanChangeSession,
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
