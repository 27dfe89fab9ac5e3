// One run of the outbox worker: claim due deliveries, post each to the automation webhook
// (signed body, idempotency key, signed expiring download URLs), record the outcome with
// exponential backoff, and give up after the last attempt keeping the last error.
import { z } from 'zod';
import {
  DELIVERY_LEASE_SECONDS,
  DOWNLOAD_URL_SECONDS,
  IDEMPOTENCY_HEADER,
  retryDelaySeconds,
  shouldGiveUp,
  SIGNATURE_HEADER,
} from '../_shared/domain-server/outbox.ts';
import { settings } from '../_shared/config.ts';
import { EPISODES_BUCKET } from '../_shared/domain/episodes.ts';
import { BRAND_ASSETS_BUCKET } from '../_shared/domain/onboarding.ts';
import { db } from '../_shared/db.ts';
import { HttpError, parseJsonBody } from '../_shared/http-error.ts';
import { serviceClient } from '../_shared/supabase-clients.ts';
import { signatureHeader } from '../_shared/webhook-signature.ts';
import { isServiceCaller } from '../_shared/service-caller.ts';
import { PROVIDER_ANSWER_MAX_BYTES, readCappedText } from '../_shared/domain-server/capped-response.ts';

type Delivery = { id: string; submission_log_id: string; attempts: number; payload: Record<string, unknown> };
type DeliveryContext = {
  clipsPerEpisode: number;
  subscriptionTier: string;
  postAutomatically: boolean;
  brandKit: Record<string, unknown>;
  brandAssetPaths: Record<string, string>;
};
type Outcome = 'delivered' | 'retrying' | 'failed';

const reason = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function deliverySettings() {
  const { automation, siteUrl } = settings();
  return { url: automation.webhookUrl, secret: automation.secret, maxAttempts: automation.maxAttempts, timeoutMs: automation.timeoutSeconds * 1000, siteUrl };
}

async function signedUrls(bucket: string, paths: string[]): Promise<Map<string, string>> {
  if (paths.length === 0) return new Map();
  const { data, error } = await serviceClient().storage.from(bucket).createSignedUrls(paths, DOWNLOAD_URL_SECONDS);
  if (error) throw new Error(`could not sign download URLs: ${error.message}`);
  const urls = new Map<string, string>();
  for (const entry of data) {
    if (entry.error || !entry.signedUrl || !entry.path) throw new Error(`could not sign ${entry.path ?? 'a file'}: ${entry.error ?? 'no URL'}`);
    urls.set(entry.path, entry.signedUrl);
  }
  return urls;
}

/** The body the automation receives. */
async function deliveryBody(delivery: Delivery, context: DeliveryContext | undefined, siteUrl: string) {
  const files = (delivery.payload.objectStorageFiles as string[] | undefined) ?? [];
  const expiresAt = new Date(Date.now() + DOWNLOAD_URL_SECONDS * 1000).toISOString();
  const fileUrls = await signedUrls(EPISODES_BUCKET, files);
  const assetPaths = context?.brandAssetPaths ?? {};
  const assetUrls = await signedUrls(BRAND_ASSETS_BUCKET, Object.values(assetPaths));
  return {
    ...delivery.payload,
    deliveryId: delivery.id,
    attempt: delivery.attempts,
    files: files.map((path) => ({ path, name: path.split('/').at(-1), downloadUrl: fileUrls.get(path), expiresAt })),
    brandKit: {
      ...(context?.brandKit ?? {}),
      assets: Object.fromEntries(Object.entries(assetPaths).map(([slot, path]) => [slot, { path, downloadUrl: assetUrls.get(path), expiresAt }])),
    },
    subscriptionTier: context?.subscriptionTier ?? 'starter',
    clipsPerEpisode: context?.clipsPerEpisode ?? 3,
    postAutomatically: context?.postAutomatically ?? delivery.payload.postAutomatically ?? true,
    returnUrl: `${siteUrl}/done`,
  };
}

async function deliver(delivery: Delivery, context: DeliveryContext | undefined, config: ReturnType<typeof deliverySettings>): Promise<Outcome> {
  let status: number | null = null;
  let error: string | null = null;
  try {
    const body = JSON.stringify(await deliveryBody(delivery, context, config.siteUrl));
    const response = await fetch(config.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: await signatureHeader(config.secret, body),
        [IDEMPOTENCY_HEADER]: delivery.id,
      },
      body,
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    status = response.status;
    const text = await readCappedText(response, PROVIDER_ANSWER_MAX_BYTES);
    if (!response.ok) error = `HTTP ${response.status}: ${text.slice(0, 500) || response.statusText}`;
  } catch (cause) {
    error = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  }
  const giveUp = error !== null && shouldGiveUp(delivery.attempts, config.maxAttempts);
  try {
    await db()`
      select from private.record_webhook_attempt(
        ${delivery.id}::uuid, ${error === null}, ${status}::integer, ${error}::text,
        ${`${retryDelaySeconds(delivery.attempts)} seconds`}::interval, ${giveUp}
      )`;
  } catch (cause) {
    // Unrecorded, the lease expires and the delivery is claimed again (the idempotency key lets
    // the receiver drop the repeat).
    throw new Error(`could not record delivery ${delivery.id}: ${reason(cause)}`, { cause });
  }
  return error === null ? 'delivered' : giveUp ? 'failed' : 'retrying';
}

/** A run's optional body: how many deliveries to claim and for how long (bad values: the defaults). */
const runOptionsSchema = z.object({ limit: z.unknown().optional(), leaseSeconds: z.unknown().optional() });

export async function handleDeliveryRun(request: Request): Promise<Response> {
  if (request.method !== 'POST') return json(405, { message: 'Use POST' });
  if (!isServiceCaller(request)) return json(401, { message: 'Only the scheduler may run deliveries' });
  const config = deliverySettings();
  if (!config.url || !config.secret) return json(503, { message: 'AUTOMATION_WEBHOOK_URL and AUTOMATION_WEBHOOK_SECRET must be set' });

  let options: z.infer<typeof runOptionsSchema>;
  try {
    options = await parseJsonBody(request, runOptionsSchema);
  } catch (error) {
    if (error instanceof HttpError) return json(error.status, { message: error.message });
    throw error;
  }
  const limit = Number.isInteger(options.limit) && (options.limit as number) > 0 ? Math.min(options.limit as number, 100) : 20;
  const lease = Number.isInteger(options.leaseSeconds) && (options.leaseSeconds as number) > 0 ? (options.leaseSeconds as number) : DELIVERY_LEASE_SECONDS;

  let deliveries: Delivery[];
  try {
    deliveries = await db()<Delivery[]>`
      select id, submission_log_id, attempts, payload
        from private.claim_webhook_deliveries(${limit}::integer, ${`${lease} seconds`}::interval)`;
  } catch (cause) {
    return json(500, { message: `could not claim deliveries: ${reason(cause)}` });
  }
  if (deliveries.length === 0) return json(200, { claimed: 0, delivered: 0, retrying: 0, failed: 0 });

  let contexts: { delivery_id: string; context: DeliveryContext }[];
  try {
    contexts = await db()<{ delivery_id: string; context: DeliveryContext }[]>`
      select delivery_id, context from private.webhook_delivery_context(${deliveries.map((d) => d.id)}::uuid[])`;
  } catch (cause) {
    return json(500, { message: `could not load delivery context: ${reason(cause)}` });
  }
  const contextById = new Map(contexts.map((row) => [row.delivery_id, row.context]));

  const outcomes = await Promise.all(deliveries.map((d) => deliver(d, contextById.get(d.id), config)));
  const count = (outcome: Outcome) => outcomes.filter((o) => o === outcome).length;
  return json(200, { claimed: deliveries.length, delivered: count('delivered'), retrying: count('retrying'), failed: count('failed') });
}
