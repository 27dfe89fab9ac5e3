// GET /api/airtable/user-data: the profile with each file as {exists, filename}; null when no
// profile data was ever saved.
import { profileRecordSchema } from '@domain/profile-record';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const profileRecordQuery = queryOptions({
  queryKey: queryKeys.profile,
  queryFn: () => apiLoad('/api/airtable/user-data', profileRecordSchema),
});

export function useProfileRecord() {
  return useQuery(profileRecordQuery);
}
