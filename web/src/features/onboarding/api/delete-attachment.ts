// POST /api/onboarding/delete-attachment: removes one stored file (by its upload slot).
import type { BrandAssetSlot } from '@domain/onboarding';
import { profileRecordSchema, type ProfileRecord } from '@domain/profile-record';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function deleteAttachment(fieldName: BrandAssetSlot): Promise<ProfileRecord | null> {
  return apiRequest('POST', '/api/onboarding/delete-attachment', profileRecordSchema, { body: { fieldName } });
}

export function useDeleteAttachment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAttachment,
    onSuccess: (record) => queryClient.setQueryData(queryKeys.profile, record),
  });
}
