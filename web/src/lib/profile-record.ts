// The subscriber's profile (GET /api/airtable/user-data): its fields and each file as {exists,
// filename}; null when no profile data was ever saved. The one way the SPA reads the profile:
// onboarding's form and card show and edit it, and the WordPress dialog takes its site from it.
import { profileRecordSchema } from '@domain/profile-record';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from './api-client';
import { queryKeys } from './query-keys';

export const profileRecordQuery = queryOptions({
  queryKey: queryKeys.profile,
  queryFn: () => apiLoad('/api/airtable/user-data', profileRecordSchema),
});

export function useProfileRecord() {
  return useQuery(profileRecordQuery);
}
