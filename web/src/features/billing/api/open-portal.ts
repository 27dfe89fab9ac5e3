// POST /api/create-portal-session: the server answers the billing portal's address on Stripe.
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';

/** What a billing-portal session answers (also the plan-change session). */
export const portalAnswer = z.object({ url: z.string() });

function openPortal() {
  return apiRequest('POST', '/api/create-portal-session', portalAnswer);
}

export function useOpenPortal() {
  return useMutation({
    mutationFn: openPortal,
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
