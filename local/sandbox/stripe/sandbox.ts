// What the sandbox's parts share: the account's data, its event log (with webhook delivery)
// and the billing simulation that moves subscriptions through their life.
import type { BillingSimulation } from './simulation.ts';
import type { EventLog } from './resources/events.ts';
import type { StripeSettings } from './settings.ts';
import type { StripeState } from './state.ts';

export interface StripeSandbox {
  readonly settings: StripeSettings;
  /** The sandbox's own URL (hosted pages live under it). */
  readonly baseUrl: string;
  readonly state: StripeState;
  readonly events: EventLog;
  readonly billing: BillingSimulation;
}
