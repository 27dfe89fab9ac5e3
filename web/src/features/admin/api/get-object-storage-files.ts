// GET /api/admin/object-storage/files: the episodes bucket's files in path order, one page at a time.
import { objectStorageFilePageSchema, type ObjectStorageFile, type Page } from '@domain/admin-resubmit';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function getObjectStorageFiles(cursor: string | null): Promise<Page<ObjectStorageFile>> {
  return apiRequest(
    'GET',
    cursor ? `/api/admin/object-storage/files?cursor=${encodeURIComponent(cursor)}` : '/api/admin/object-storage/files',
    objectStorageFilePageSchema,
  );
}

export const objectStorageFilesQuery = infiniteQueryOptions({
  queryKey: queryKeys.admin.objectStorageFiles,
  queryFn: ({ pageParam }) => getObjectStorageFiles(pageParam),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

export function useObjectStorageFiles(enabled: boolean) {
  return useInfiniteQuery({ ...objectStorageFilesQuery, enabled });
}
