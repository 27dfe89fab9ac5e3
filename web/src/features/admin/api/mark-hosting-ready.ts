// POST /api/admin/hosting-setups/ready {email}: hosting is ready, the subscriber may submit.
import { hostingActionResultSchema, type HostingAction } from '@domain/admin-hosting';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function markHostingReady(payload: HostingAction) {
  return apiRequest('POST', '/api/admin/hosting-setups/ready', hostingActionResultSchema, { body: payload });
}

export function useMarkHostingReady() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markHostingReady,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.hostingSetups }),
  });
}
