// The anchor a Supabase user would reach for instead of the SPA's upload code: Uppy with its tus
// plugin, configured as Supabase's resumable-upload guide shows (its endpoint, the Bearer token
// and apikey headers, uploadDataDuringCreation, 6 MiB chunks, the four metadata fields set on
// `file-added`). Bundled by bench/episode-upload-browser.ts into a bench-only page on the web
// origin (never into the product's bundle); the bench calls `window.benchUppyUpload`.
import Uppy from '@uppy/core';
import Tus from '@uppy/tus';

export interface UppyUploadRequest {
  supabaseUrl: string;
  anonKey: string;
  accessToken: string;
  bucketName: string;
  objectName: string;
  file: File;
}

async function benchUppyUpload(request: UppyUploadRequest): Promise<void> {
  const uppy = new Uppy().use(Tus, {
    endpoint: `${request.supabaseUrl}/storage/v1/upload/resumable`,
    headers: {
      authorization: `Bearer ${request.accessToken}`,
      apikey: request.anonKey,
    },
    uploadDataDuringCreation: true,
    chunkSize: 6 * 1024 * 1024,
    allowedMetaFields: ['bucketName', 'objectName', 'contentType', 'cacheControl'],
  });
  uppy.on('file-added', (file) => {
    file.meta = { ...file.meta, bucketName: request.bucketName, objectName: request.objectName, contentType: file.type, cacheControl: '3600' };
  });
  uppy.addFile({ name: request.file.name, type: request.file.type, data: request.file });
  const result = await uppy.upload();
  const failed = result?.failed ?? [];
  if (!result || failed.length > 0 || result.successful?.length !== 1) throw new Error(`Uppy upload failed: ${failed.map((file) => String(file.error)).join('; ') || 'no result'}`);
  uppy.destroy();
}

(window as unknown as { benchUppyUpload: typeof benchUppyUpload }).benchUppyUpload = benchUppyUpload;
