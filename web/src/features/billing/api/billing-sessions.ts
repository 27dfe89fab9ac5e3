// Checkout and portal: the server answers an address on Stripe; the browser goes there.
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export function useStartCheckout() {
  return useMutation({
    mutationFn: (tier: string) => apiRequest<{ checkoutUrl: string }>('POST', '/api/create-checkout-session', { tier }),
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
  });
}

export function useOpenPortal() {
  return useMutation({
    mutationFn: () => apiRequest<{ url: string }>('POST', '/api/create-portal-session'),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
