// Streaming one multipart file part into Storage through storage-js, checking its type and size
// on the way.
import { BRAND_ASSETS_BUCKET, brandAssetObjectName, brandAssetRules, contentMatchesType, type BrandAssetSlot } from '../../_shared/domain/onboarding.ts';
import { SIGNATURE_BYTES } from '../../_shared/domain/file-signatures.ts';
import { HttpError } from '../../_shared/http-error.ts';
import type { Caller } from '../../_shared/session.ts';
import { serviceClient } from '../../_shared/supabase-clients.ts';

/**
 * Storage's refusal of an upload as this route's answer. storage-js's error holds the logical
 * status Storage's answer names (`statusCode`; Storage answers every 4xx with HTTP 400), else
 * the HTTP status, and the answer's message; a request that failed on the way has neither status.
 */
function storageRefusal(error: { message: string; status?: number; statusCode?: string }, slot: BrandAssetSlot): HttpError {
  const rule = brandAssetRules[slot];
  const status = /^\d{3}$/.test(error.statusCode ?? '') ? error.statusCode : String(error.status ?? '');
  if (status === '413') return new HttpError(413, rule.sizeMessage);
  if (status === '415' || /mime/i.test(error.message)) return new HttpError(415, rule.typeMessage);
  // No active subscription, or the storage quota reached (the storage trigger's words).
  if (status === '403' && error.message) return new HttpError(403, error.message);
  return new HttpError(502, `Could not store ${slot}: ${error.message}`);
}

/**
 * Streams one file part into the caller's slot folder, checking its first bytes against the
 * slot's type and its size against the slot's limit on the way.
 */
export async function uploadPart(caller: Caller, slot: BrandAssetSlot, filename: string, source: ReadableStream<Uint8Array>): Promise<string> {
  const rule = brandAssetRules[slot];
  const objectName = brandAssetObjectName(caller.userId, slot, filename, crypto.randomUUID().replace(/-/g, '').slice(0, 12));
  let refusal: HttpError | null = null;
  let received = 0;
  let head = new Uint8Array(0);
  // Pulled by hand, not piped, so a request body that breaks off (a truncated multipart body)
  // is known here as the client's fault (400), not taken for Storage failing.
  const reader = source.getReader();
  const refuse = (controller: ReadableStreamDefaultController<Uint8Array>, error: HttpError) => {
    refusal = error;
    controller.error(error);
    reader.cancel().catch(() => {});
  };
  const checked = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        return refuse(controller, error instanceof HttpError ? error : new HttpError(400, `The ${slot} file part ended early`));
      }
      if (next.done) {
        if (head.byteLength < SIGNATURE_BYTES || !contentMatchesType(slot, head)) return refuse(controller, new HttpError(415, rule.typeMessage));
        return controller.close();
      }
      const chunk = next.value;
      received += chunk.byteLength;
      if (received > rule.maxBytes) return refuse(controller, new HttpError(413, rule.sizeMessage));
      if (head.byteLength < SIGNATURE_BYTES) {
        head = new Uint8Array([...head, ...chunk.subarray(0, SIGNATURE_BYTES - head.byteLength)]);
        if (head.byteLength >= SIGNATURE_BYTES && !contentMatchesType(slot, head)) return refuse(controller, new HttpError(415, rule.typeMessage));
      }
      controller.enqueue(chunk);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  // Streamed by storage-js with the service role (subscribers may not write brand assets). What
  // this stream refused is known here (`refusal`), whatever error the request then ends with.
  const { error } = await serviceClient()
    .storage.from(BRAND_ASSETS_BUCKET)
    .upload(objectName, checked, {
      contentType: rule.mimeType,
      upsert: false,
      // What Storage keeps without the header; storage-js would send max-age=3600.
      headers: { 'cache-control': 'no-cache' },
    });
  if (refusal) throw refusal;
  if (error) throw storageRefusal(error, slot);
  return objectName;
}
