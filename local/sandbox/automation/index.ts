// The automation receiver: stands in for the processing automation that Castloop's outbox
// worker (supabase/functions/deliver-submissions) posts each submission to.
//   POST /automation/webhook                checks the Castloop-Signature header (HMAC-SHA256
//                                           over "<t>.<body>", 5 min tolerance), drops repeats
//                                           of an Idempotency-Key, records the delivery, then
//                                           downloads every file URL to prove it works
//   GET  /automation                        the deliveries as a page
//   GET  /_sandbox/automation/deliveries    the same as JSON
//   POST /_sandbox/automation/behaviour     {failNext?, delayMs?, submissionLogId?}: fail the
//                                           next N deliveries (of one submission, if given)
//                                           with a 500, or answer each after delayMs
//   DELETE /_sandbox/automation/deliveries  forget everything
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { StackConfig } from '../../config.ts';
import { sendJson } from '../../lib/http.ts';
import { escapeHtml as e, htmlPage, sendHtml } from '../http.ts';
import { JsonFile } from '../persist.ts';
import type { SandboxModule, SandboxRequest } from '../types.ts';
import { automationSettings } from './settings.ts';

export { automationFunctionEnv } from './settings.ts';

const TOLERANCE_SECONDS = 300;

interface DownloadedFile {
  path: string;
  status: 'pending' | 'downloaded' | 'failed';
  bytes?: number;
  sha256?: string;
  error?: string;
}

interface ReceivedDelivery {
  receivedAt: string;
  idempotencyKey: string | null;
  submissionLogId: string | null;
  /** accepted: recorded and answered 200; duplicate: a repeat of an accepted key (200);
   *  failed_on_purpose: told to fail (500); rejected: bad signature or body (400). */
  outcome: 'accepted' | 'duplicate' | 'failed_on_purpose' | 'rejected';
  reason?: string;
  body?: Record<string, unknown>;
  files: DownloadedFile[];
}

interface Behaviour {
  failNext: number;
  delayMs: number;
  submissionLogId: string | null;
}

interface State {
  deliveries: ReceivedDelivery[];
}

const MAX_KEPT = 500;

function verifySignature(header: string | undefined, body: Buffer, secret: string, now = Date.now()): string | null {
  if (!header) return 'missing Castloop-Signature header';
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1) return 'malformed Castloop-Signature header';
  if (Math.abs(now / 1000 - timestamp) > TOLERANCE_SECONDS) return 'signature timestamp outside the tolerance';
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const given = Buffer.from(parts.v1, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'signature does not match';
  return null;
}

async function download(file: DownloadedFile, url: string): Promise<void> {
  try {
    const response = await fetch(url);
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    Object.assign(file, { status: 'downloaded', bytes, sha256: hash.digest('hex') });
  } catch (error) {
    Object.assign(file, { status: 'failed', error: (error as Error).message });
  }
}

function page(deliveries: ReceivedDelivery[], behaviour: Behaviour): string {
  const rows = deliveries
    .slice()
    .reverse()
    .map(
      (d) => `<tr>
<td>${e(d.receivedAt.replace('T', ' ').slice(0, 19))}</td>
<td>${e(d.outcome)}${d.reason ? `<br><span class="muted">${e(d.reason)}</span>` : ''}</td>
<td>${e(d.body?.userEmail ?? '')}</td>
<td><code>${e(d.submissionLogId ?? '')}</code></td>
<td>${d.files.map((f) => `${e(f.path.split('/').at(-1))}: ${e(f.status)}${f.bytes !== undefined ? ` (${f.bytes} bytes)` : ''}`).join('<br>')}</td>
</tr>`,
    )
    .join('\n');
  return `<h2>Automation receiver</h2>
<p class="muted">Deliveries posted to <code>/automation/webhook</code>, newest first. ${
    behaviour.failNext > 0 ? `Failing the next ${behaviour.failNext} deliveries. ` : ''
  }${behaviour.delayMs > 0 ? `Answering after ${behaviour.delayMs} ms.` : ''}</p>
<table>
<thead><tr><th scope="col">Received</th><th scope="col">Outcome</th><th scope="col">Subscriber</th><th scope="col">Submission</th><th scope="col">Files</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="5">No deliveries yet.</td></tr>'}
</tbody>
</table>`;
}

export function createAutomationSandbox(config: StackConfig, options: { dataDir: string }): SandboxModule {
  const { secret } = automationSettings(config);
  const state: State = { deliveries: [] };
  const file = new JsonFile<State>(path.join(options.dataDir, 'automation.json'), () => state);
  state.deliveries = file.load()?.deliveries ?? [];
  const behaviour: Behaviour = { failNext: 0, delayMs: 0, submissionLogId: null };

  const record = (delivery: ReceivedDelivery) => {
    state.deliveries.push(delivery);
    if (state.deliveries.length > MAX_KEPT) state.deliveries.splice(0, state.deliveries.length - MAX_KEPT);
    file.save();
  };

  async function receive({ req, res, body }: SandboxRequest): Promise<void> {
    const receivedAt = new Date().toISOString();
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    const problem = verifySignature(req.headers['castloop-signature'] as string | undefined, body, secret);
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      parsed = undefined;
    }
    const submissionLogId = typeof parsed?.submissionLogId === 'string' ? parsed.submissionLogId : null;
    const base = { receivedAt, idempotencyKey, submissionLogId, body: parsed, files: [] as DownloadedFile[] };
    if (problem || !parsed) {
      record({ ...base, outcome: 'rejected', reason: problem ?? 'body is not JSON' });
      sendJson(res, 400, { message: problem ?? 'body is not JSON' });
      return;
    }
    if (behaviour.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    const targeted = behaviour.submissionLogId === null || behaviour.submissionLogId === submissionLogId;
    if (behaviour.failNext > 0 && targeted) {
      behaviour.failNext -= 1;
      record({ ...base, outcome: 'failed_on_purpose', reason: 'the receiver was told to fail' });
      sendJson(res, 500, { message: 'automation receiver: told to fail this delivery' });
      return;
    }
    if (idempotencyKey && state.deliveries.some((d) => d.outcome === 'accepted' && d.idempotencyKey === idempotencyKey)) {
      record({ ...base, outcome: 'duplicate', reason: 'idempotency key seen before' });
      sendJson(res, 200, { received: true, duplicate: true });
      return;
    }
    const files = Array.isArray(parsed.files) ? (parsed.files as Array<{ path?: unknown; downloadUrl?: unknown }>) : [];
    const delivery: ReceivedDelivery = {
      ...base,
      outcome: 'accepted',
      files: files.map((f) => ({ path: String(f.path ?? ''), status: 'pending' })),
    };
    record(delivery);
    sendJson(res, 200, { received: true });
    // As the real automation would: fetch the files after acknowledging the delivery.
    await Promise.all(
      files.map((f, i) =>
        typeof f.downloadUrl === 'string'
          ? download(delivery.files[i], f.downloadUrl)
          : Object.assign(delivery.files[i], { status: 'failed', error: 'no download URL' }),
      ),
    );
    file.save();
  }

  return {
    name: 'Automation receiver',
    routes(routes) {
      routes
        .on('POST', '/automation/webhook', receive)
        .on('GET', '/automation', ({ res }) =>
          sendHtml(res, 200, htmlPage('Automation receiver (sandbox)', `<h1>Automation receiver (sandbox)</h1>\n${page(state.deliveries, behaviour)}`)),
        )
        .on('GET', '/_sandbox/automation/deliveries', ({ res }) => sendJson(res, 200, { deliveries: state.deliveries, behaviour }))
        .on('DELETE', '/_sandbox/automation/deliveries', ({ res }) => {
          state.deliveries = [];
          Object.assign(behaviour, { failNext: 0, delayMs: 0, submissionLogId: null });
          file.save();
          sendJson(res, 200, { deliveries: [] });
        })
        .on('POST', '/_sandbox/automation/behaviour', ({ res, body }) => {
          let input: Partial<Behaviour>;
          try {
            input = JSON.parse(body.toString('utf8') || '{}') as Partial<Behaviour>;
          } catch {
            return sendJson(res, 400, { message: 'body must be JSON' });
          }
          if (input.failNext !== undefined) behaviour.failNext = Math.max(0, Math.floor(Number(input.failNext) || 0));
          if (input.delayMs !== undefined) behaviour.delayMs = Math.max(0, Math.floor(Number(input.delayMs) || 0));
          if (input.submissionLogId !== undefined) behaviour.submissionLogId = input.submissionLogId || null;
          sendJson(res, 200, { behaviour });
        });
    },
    homeSection: () => page(state.deliveries.slice(-20), behaviour),
    stop: async () => file.flush(),
  };
}
