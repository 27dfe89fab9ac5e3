// POST /api/objects/upload {fileName, size}: the server opens an episode upload (names its object
// in the caller's folder and holds its size against the storage quota until it lands) before the
// resumable upload starts; a refusal (too many open uploads, the quota) says why.
import { openedUploadSchema } from '@domain/episodes';
import { apiRequest } from '@/lib/api-client';

export function openEpisodeUpload(fileName: string, size: number) {
  return apiRequest('POST', '/api/objects/upload', openedUploadSchema, { body: { fileName, size } });
}
