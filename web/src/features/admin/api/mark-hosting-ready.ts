// POST /api/admin/hosting-setups/ready {email}: hosting is ready, the subscriber may submit.
import type { HostingAction, HostingActionResult } from '@domain/admin-hosting';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { hostingSetupsKey } from './get-hosting-setups';

export function markHostingReady(payload: HostingAction): Promise<HostingActionResult> {
  return apiRequest<HostingActionResult>('POST', '/api/admin/hosting-setups/ready', payload);
}

export function useMarkHostingReady() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markHostingReady,
    onSettled: () => queryClient.invalidateQueries({ queryKey: hostingSetupsKey }),
  });
}
