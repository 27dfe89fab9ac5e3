// Saving the configuration: POST /api/onboarding/submit with the fields, or, when any file is
// chosen, POST /api/onboarding/submit-with-files (multipart: a `fields` JSON part, then one part
// per file slot) sent with XMLHttpRequest so each file's upload progress can be shown.
import type { BrandAssetSlot, OnboardingFields, ProfileRecord } from '@domain/onboarding';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import { currentAccessToken } from '@/lib/supabase';
import { profileRecordKey } from './get-profile-record';

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

async function submitWithFiles({ fields, files, onProgress }: SaveProfileInput): Promise<ProfileRecord | null> {
  const entries = Object.entries(files) as [BrandAssetSlot, File][];
  const body = new FormData();
  const fieldsJson = JSON.stringify(fields);
  body.append('fields', fieldsJson);
  for (const [slot, file] of entries) body.append(slot, file, file.name);
  const token = await currentAccessToken();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/onboarding/submit-with-files');
    xhr.withCredentials = true;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      // The fields part and the part headers come first; the file bytes dominate the rest.
      const overhead = Math.max(event.total - entries.reduce((sum, [, file]) => sum + file.size, 0), 0);
      onProgress?.(progressBySlot(entries, overhead, event.loaded));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as ProfileRecord | null);
      else reject(ApiError.fromResponse(xhr.status, xhr.statusText, xhr.responseText));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network error: the upload did not finish'));
    xhr.send(body);
  });
}

function saveProfile(input: SaveProfileInput): Promise<ProfileRecord | null> {
  if (Object.keys(input.files).length > 0) return submitWithFiles(input);
  return apiRequest<ProfileRecord | null>('POST', '/api/onboarding/submit', { fields: input.fields });
}

export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: (record) => queryClient.setQueryData(profileRecordKey, record),
  });
}
