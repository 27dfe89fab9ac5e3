// GET /api/airtable/user-data: the profile with each file as {exists, filename}; null when no
// profile data was ever saved.
import type { ProfileRecord } from '@domain/onboarding';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from '@/lib/api-client';

export const profileRecordKey = ['/api/airtable/user-data'] as const;

export const profileRecordQuery = queryOptions({
  queryKey: profileRecordKey,
  queryFn: () => apiLoad<ProfileRecord | null>('/api/airtable/user-data'),
});

export function useProfileRecord() {
  return useQuery(profileRecordQuery);
}
