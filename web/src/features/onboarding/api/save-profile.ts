// Saving the configuration: POST /api/onboarding/submit with the fields, or, when any file is
// chosen, POST /api/onboarding/submit-with-files (multipart: a `fields` JSON part, then one part
// per file slot), whose upload progress is shown per file.
import type { BrandAssetSlot, OnboardingFields } from '@domain/onboarding';
import { profileRecordSchema, type ProfileRecord } from '@domain/profile-record';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type ChosenFiles = Partial<Record<BrandAssetSlot, File>>;
/** 0-100 per slot being uploaded. */
export type UploadProgress = Partial<Record<BrandAssetSlot, number>>;

interface SaveProfileInput {
  fields: OnboardingFields;
  files: ChosenFiles;
  onProgress?: (progress: UploadProgress) => void;
}

/** Which slot the byte at `offset` of the body belongs to, from the parts' sizes in body order. */
function progressBySlot(files: [BrandAssetSlot, File][], headBytes: number, loaded: number): UploadProgress {
  const progress: UploadProgress = {};
  let start = headBytes;
  for (const [slot, file] of files) {
    const done = Math.min(Math.max(loaded - start, 0), file.size);
    progress[slot] = file.size === 0 ? 100 : Math.round((done / file.size) * 100);
    start += file.size;
  }
  return progress;
}

function submitWithFiles({ fields, files, onProgress }: SaveProfileInput): Promise<ProfileRecord | null> {
  const entries = Object.entries(files) as [BrandAssetSlot, File][];
  const body = new FormData();
  body.append('fields', JSON.stringify(fields));
  for (const [slot, file] of entries) body.append(slot, file, file.name);
  const fileBytes = entries.reduce((sum, [, file]) => sum + file.size, 0);
  return apiRequest('POST', '/api/onboarding/submit-with-files', profileRecordSchema, {
    body,
    onUploadProgress: (loaded, total) => {
      // The fields part and the part headers come first; the file bytes dominate the rest.
      onProgress?.(progressBySlot(entries, Math.max(total - fileBytes, 0), loaded));
    },
  });
}

function saveProfile(input: SaveProfileInput): Promise<ProfileRecord | null> {
  if (Object.keys(input.files).length > 0) return submitWithFiles(input);
  return apiRequest('POST', '/api/onboarding/submit', profileRecordSchema, { body: { fields: input.fields } });
}

export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: (record) => queryClient.setQueryData(queryKeys.profile, record),
  });
}
