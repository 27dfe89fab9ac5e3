// Events: every change is recorded as an event and delivered to the webhook endpoint, retried on
// failure, resendable; `GET /v1/events` lists them.
import { checkAllowed, listParams, noSuch, paginate, str, type Route } from '../request.ts';
import type { StripeSettings } from '../settings.ts';
import { newId, nowSeconds, type Json } from '../primitives.ts';
import type { StripeState } from '../state.ts';
import { deliver, type Delivery } from '../webhooks.ts';

interface StripeEvent extends Json {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: Json; previous_attributes?: Json };
}

export interface EventRecord {
  event: StripeEvent;
  deliveries: Delivery[];
  status: 'pending' | 'delivered' | 'failed';
  /** Unix ms of the next automatic retry, or null. */
  nextRetryAt: number | null;
  retries: number;
}

const MAX_EVENTS = 1000;

export class EventLog {
  private queue: Promise<unknown> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly state: StripeState,
    private readonly settings: StripeSettings,
  ) {}

  startRetries(): void {
    if (this.settings.retrySeconds.length === 0) return;
    // Events left pending by a previous run (stopped mid-delivery) are retried soon.
    for (const record of Object.values(this.state.data.events)) {
      if (record.status === 'pending' && record.nextRetryAt === null) record.nextRetryAt = Date.now() + 2000;
    }
    this.retryTimer = setInterval(() => this.retryDue(), 1000);
    this.retryTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.retryTimer) clearInterval(this.retryTimer);
    await this.queue.catch(() => {});
  }

  /** Records an event (a snapshot of `object`) and queues its delivery; resolves when delivered or failed. */
  emit(type: string, object: Json, previousAttributes?: Json): { event: StripeEvent; delivered: Promise<Delivery> } {
    const data = this.state.data;
    const event: StripeEvent = {
      id: newId('evt_'),
      object: 'event',
      api_version: data.apiVersion,
      created: nowSeconds(),
      data: previousAttributes
        ? { object: structuredClone(object), previous_attributes: previousAttributes }
        : { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    data.events[event.id] = { event, deliveries: [], status: 'pending', nextRetryAt: null, retries: 0 };
    data.eventOrder.push(event.id);
    while (data.eventOrder.length > MAX_EVENTS) {
      const id = data.eventOrder.shift();
      if (id) delete data.events[id];
    }
    this.state.save();
    return { event, delivered: this.enqueue(event.id, 'initial') };
  }

  /** Sends an event again (same id and payload, new signature), e.g. to test idempotency. */
  resend(eventId: string): Promise<Delivery> {
    return this.enqueue(eventId, 'resend');
  }

  /** Newest first. */
  recent(limit = 50): EventRecord[] {
    const data = this.state.data;
    return data.eventOrder
      .slice(-limit)
      .reverse()
      .map((id) => data.events[id])
      .filter((r): r is EventRecord => Boolean(r));
  }

  private enqueue(eventId: string, reason: Delivery['reason']): Promise<Delivery> {
    const run = this.queue.then(() => this.deliverNow(eventId, reason));
    this.queue = run.catch(() => {});
    return run;
  }

  private async deliverNow(eventId: string, reason: Delivery['reason']): Promise<Delivery> {
    const record = this.state.data.events[eventId];
    if (!record) throw new Error(`No such event: ${eventId}`);
    const payload = JSON.stringify(record.event, null, 2);
    const delivery = await deliver(this.settings.webhookUrl, payload, this.settings.webhookSecret, reason);
    record.deliveries.push(delivery);
    if (delivery.ok) {
      record.status = 'delivered';
      record.nextRetryAt = null;
    } else if (reason === 'resend') {
      // A failed manual resend leaves a delivered event delivered and scheduled retries in place.
      if (record.status !== 'delivered' && record.nextRetryAt === null) record.status = 'failed';
    } else {
      const delay = this.settings.retrySeconds[record.retries];
      record.status = delay === undefined ? 'failed' : 'pending';
      record.nextRetryAt = delay === undefined ? null : Date.now() + delay * 1000;
    }
    this.state.save();
    return delivery;
  }

  private retryDue(): void {
    const now = Date.now();
    for (const id of this.state.data.eventOrder) {
      const record = this.state.data.events[id];
      if (record?.nextRetryAt != null && record.nextRetryAt <= now) {
        record.nextRetryAt = null;
        record.retries += 1;
        void this.enqueue(id, 'retry');
      }
    }
  }
}

export const eventRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/events$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'type', 'types', 'created', 'delivery_success']);
      const type = str(p, 'type');
      const data = s.state.data;
      const events = data.eventOrder
        .map((id) => data.events[id]?.event)
        .filter((e) => e && (!type || e.type === type)) as Array<Json & { id: string; created: number }>;
      return paginate(events, p, '/v1/events');
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/events\/([^/]+)$/,
    handler: (s, _p, [id]) => s.state.data.events[id]?.event ?? noSuch('event', id),
  },
];
