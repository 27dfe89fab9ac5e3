// POST /api/onboarding/delete-attachment: removes one stored file (by its upload slot).
import type { BrandAssetSlot, ProfileRecord } from '@domain/onboarding';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { profileRecordKey } from './get-profile-record';

function deleteAttachment(fieldName: BrandAssetSlot): Promise<ProfileRecord | null> {
  return apiRequest<ProfileRecord | null>('POST', '/api/onboarding/delete-attachment', { fieldName });
}

export function useDeleteAttachment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAttachment,
    onSuccess: (record) => queryClient.setQueryData(profileRecordKey, record),
  });
}
