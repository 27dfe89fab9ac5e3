// The sandbox-only helpers under /_sandbox/stripe: listing, showing and resending events, and simulating billing.
import { redirect, sendJson } from '../../lib/http.ts';
import type { SandboxRequest } from '../types.ts';
import type { StripeSandbox } from './sandbox.ts';

function wantsHtml(request: SandboxRequest): boolean {
  return (request.req.headers.accept ?? '').includes('text/html');
}

export function sandboxHelpers(sandbox: StripeSandbox) {
  const { state, events } = sandbox;
  /** Sandbox-only helpers: a bad request is a 400 with the reason. */
  const helper =
    (handler: (request: SandboxRequest) => Promise<void> | void) =>
    async (request: SandboxRequest): Promise<void> => {
      try {
        await handler(request);
      } catch (error) {
        sendJson(request.res, 400, { message: (error as Error).message });
      }
    };

  const listEvents = helper(({ res, url }) => {
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 100) || 100, 1000);
    sendJson(res, 200, { data: events.recent(limit) });
  });

  const showEvent = helper(({ res, params }) => {
    const record = state.data.events[params.id];
    if (!record) sendJson(res, 404, { message: `No such event: ${params.id}` });
    else sendJson(res, 200, record);
  });

  const resendEvent = helper(async (request) => {
    const { res, params } = request;
    if (!params.id.startsWith('evt_') || !state.data.events[params.id]) {
      sendJson(res, 404, { message: `No such event: ${params.id}` });
      return;
    }
    const delivery = await events.resend(params.id);
    if (wantsHtml(request)) redirect(res, '/#stripe');
    else sendJson(res, 200, { event: params.id, delivery });
  });

  const simulate = (action: 'payment_failed' | 'advance') =>
    helper(async ({ res, params }) => {
      if (!params.id.startsWith('sub_') || !state.data.subscriptions[params.id]) {
        sendJson(res, 404, { message: `No such subscription: ${params.id}` });
        return;
      }
      sendJson(
        res,
        200,
        action === 'payment_failed'
          ? await sandbox.billing.paymentFailed(params.id)
          : await sandbox.billing.advancePeriod(params.id),
      );
    });

  return { listEvents, showEvent, resendEvent, simulate };
}
