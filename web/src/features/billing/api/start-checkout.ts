// POST /api/create-checkout-session {tier}: the server answers an address on Stripe; the browser goes there.
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';

const checkoutAnswer = z.object({ checkoutUrl: z.string() });

function startCheckout(tier: string) {
  return apiRequest('POST', '/api/create-checkout-session', checkoutAnswer, { body: { tier } });
}

export function useStartCheckout() {
  return useMutation({
    mutationFn: startCheckout,
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
  });
}
