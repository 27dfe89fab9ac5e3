// DELETE /api/objects/upload {path}: an unfinished upload the user removed no longer counts
// against the quota. A failure leaves it to lapse with the upload itself (24 hours).
import { apiRequest, ignoredAnswer } from '@/lib/api-client';

export function closeEpisodeUpload(path: string): Promise<void> {
  return apiRequest('DELETE', '/api/objects/upload', ignoredAnswer, { body: { path } }).then(
    () => undefined,
    () => undefined,
  );
}
