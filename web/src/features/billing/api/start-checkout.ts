// POST /api/create-checkout-session {tier}: the server answers an address on Stripe; the browser goes there.
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';

/** What every checkout route answers: the address on Stripe the browser goes to. */
export const checkoutAnswer = z.object({ checkoutUrl: z.string() });
export const goToCheckout = ({ checkoutUrl }: z.infer<typeof checkoutAnswer>) => window.location.assign(checkoutUrl);

function startCheckout(tier: string) {
  return apiRequest('POST', '/api/create-checkout-session', checkoutAnswer, { body: { tier } });
}

export function useStartCheckout() {
  return useMutation({
    mutationFn: startCheckout,
    onSuccess: goToCheckout,
  });
}
