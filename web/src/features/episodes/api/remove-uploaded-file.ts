// DELETE on Storage: an uploaded episode file the user removed before submitting. The upload
// hook calls it once per removal; a failure leaves the file to the storage cleanup.
import { EPISODES_BUCKET } from '@domain/episodes';
import { removeStorageObject } from '@/lib/supabase';

export function removeUploadedFile(objectPath: string): Promise<void> {
  return removeStorageObject(EPISODES_BUCKET, objectPath).catch(() => undefined);
}
