// POST /api/create-extra-episode-checkout: on the largest plan, Stripe Checkout for one more
// episode this month; the browser goes there and Stripe brings it back to the dashboard.
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { checkoutAnswer, goToCheckout } from './start-checkout';

function buyExtraEpisode() {
  return apiRequest('POST', '/api/create-extra-episode-checkout', checkoutAnswer);
}

export function useBuyExtraEpisode() {
  return useMutation({
    mutationFn: buyExtraEpisode,
    onSuccess: goToCheckout,
  });
}
