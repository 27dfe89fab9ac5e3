// POST /api/create-extra-episode-checkout: on the largest plan, Stripe Checkout for one more
// episode this month; the browser goes there and Stripe brings it back to the dashboard.
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';

const checkoutAnswer = z.object({ checkoutUrl: z.string() });

function buyExtraEpisode() {
  return apiRequest('POST', '/api/create-extra-episode-checkout', checkoutAnswer);
}

export function useBuyExtraEpisode() {
  return useMutation({
    mutationFn: buyExtraEpisode,
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
  });
}
