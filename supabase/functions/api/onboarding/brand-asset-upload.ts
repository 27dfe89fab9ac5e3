// Streaming one multipart file part into Storage, checking its type and size on the way.
import { brandAssetObjectName, brandAssetRules, contentMatchesType, type BrandAssetSlot } from '../../_shared/domain/onboarding.ts';
import { settings } from '../../_shared/config.ts';
import { SIGNATURE_BYTES } from '../../_shared/domain/file-signatures.ts';
import { HttpError } from '../../_shared/http-error.ts';
import type { Caller } from '../../_shared/session.ts';
import { BRAND_ASSETS_BUCKET } from '../../_shared/domain/onboarding.ts';
import { PROVIDER_ANSWER_MAX_BYTES, readCappedText } from '../../_shared/domain-server/capped-response.ts';

// The upload stays a raw fetch rather than storage-js's `upload`: storage-js turns a failed
// request into its own error (losing the refusal this stream raised, and the Storage answer's
// status and text that storageRefusal maps), and this route must tell a body that broke off
// (400), a file refused on the way (413/415) and Storage refusing it apart.
function objectUrl(objectName: string): string {
  return `${settings().supabaseUrl}/storage/v1/object/${BRAND_ASSETS_BUCKET}/${objectName.split('/').map(encodeURIComponent).join('/')}`;
}

/** Brand assets are written with the service role, once their bytes passed the slot's check. */
function serviceStorageHeaders(): Record<string, string> {
  const key = settings().serviceRoleKey;
  return { authorization: `Bearer ${key}`, apikey: key };
}

/** The Storage API's refusal of an upload as the answer this route gives. */
async function storageRefusal(res: Response, slot: BrandAssetSlot): Promise<HttpError> {
  const rule = brandAssetRules[slot];
  const text = await readCappedText(res, PROVIDER_ANSWER_MAX_BYTES).catch(() => '');
  let body: { statusCode?: string; message?: string } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: reported as it came
  }
  const status = body.statusCode ?? String(res.status);
  if (status === '413') return new HttpError(413, rule.sizeMessage);
  if (status === '415' || /mime/i.test(text)) return new HttpError(415, rule.typeMessage);
  // No active subscription, or the storage quota reached (the storage trigger's words).
  if (status === '403' && body.message) return new HttpError(403, body.message);
  return new HttpError(502, `Could not store ${slot}: ${text}`);
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
  let res: Response;
  try {
    res = await fetch(objectUrl(objectName), {
      method: 'POST',
      headers: { ...serviceStorageHeaders(), 'content-type': rule.mimeType, 'x-upsert': 'false' },
      body: checked,
    });
  } catch (error) {
    if (refusal) throw refusal;
    if (error instanceof HttpError) throw error;
    throw new HttpError(502, `Could not store ${slot}: ${(error as Error).message}`);
  }
  if (refusal) throw refusal;
  if (!res.ok) throw await storageRefusal(res, slot);
  await res.body?.cancel();
  return objectName;
}
