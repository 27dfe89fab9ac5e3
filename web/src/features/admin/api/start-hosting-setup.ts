// POST /api/admin/hosting-setups/start {email}: hosting setup (again) under way from now;
// the subscriber's submissions wait until it is marked ready.
import { hostingActionResultSchema, type HostingAction } from '@domain/admin-hosting';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function startHostingSetup(payload: HostingAction) {
  return apiRequest('POST', '/api/admin/hosting-setups/start', hostingActionResultSchema, { body: payload });
}

export function useStartHostingSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startHostingSetup,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.hostingSetups }),
  });
}
