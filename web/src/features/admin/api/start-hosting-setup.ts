// POST /api/admin/hosting-setups/start {email}: hosting setup (again) under way from now;
// the subscriber's submissions wait until it is marked ready.
import type { HostingAction, HostingActionResult } from '@domain/admin-hosting';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { hostingSetupsKey } from './get-hosting-setups';

export function startHostingSetup(payload: HostingAction): Promise<HostingActionResult> {
  return apiRequest<HostingActionResult>('POST', '/api/admin/hosting-setups/start', payload);
}

export function useStartHostingSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startHostingSetup,
    onSettled: () => queryClient.invalidateQueries({ queryKey: hostingSetupsKey }),
  });
}
