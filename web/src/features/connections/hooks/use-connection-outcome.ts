// The OAuth callback returns to /dashboard?connection=<provider>&outcome=connected|failed:
// show the outcome once, refetch the list, and take the parameters out of the address.
import { isProviderId, providerLabel } from '@domain/connection-status';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { queryKeys } from '@/lib/query-keys';
import { notify } from '@/lib/toast';
import { texts } from '../texts';

export function useConnectionOutcome(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const outcome = params.get('outcome');
    if (outcome !== 'connected' && outcome !== 'failed') return;
    const provider = params.get('connection') ?? '';
    const label = isProviderId(provider) ? providerLabel(provider) : '';
    if (outcome === 'connected') notify.success(texts.connected(label), { description: texts.connectedBody(label) });
    else notify.error(texts.connectionFailed, { description: label ? texts.connectionFailedBody(label) : undefined });
    void queryClient.invalidateQueries({ queryKey: queryKeys.connections });
    params.delete('outcome');
    params.delete('connection');
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }, [location.pathname, location.search, navigate, queryClient]);
}
