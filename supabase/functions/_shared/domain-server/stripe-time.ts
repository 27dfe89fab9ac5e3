// Stripe's times are Unix seconds, and a signed event can still carry any number in them (signed
// is not well-formed). A time no Stripe object can have is refused with what was wrong, before
// anything is recorded: turned into an Invalid Date it threw, and the webhook answered 500 to an
// event that will never record.

/** Stripe started in 2010: no Stripe object is older. */
const EARLIEST_SECONDS = Date.UTC(2010, 0, 1) / 1000;
/** Far beyond any billing period or schedule phase of a monthly plan. */
const LATEST_SECONDS = Date.UTC(2100, 0, 1) / 1000;
/** An event's `created` is when Stripe made it: not after now, give or take a clock's drift. */
const EVENT_CLOCK_DRIFT_SECONDS = 24 * 60 * 60;

export class ImpossibleStripeTime extends Error {
  constructor(
    readonly field: string,
    readonly value: unknown,
  ) {
    super(`${field} is not a possible date (${String(JSON.stringify(value) ?? value).slice(0, 40)})`);
  }
}

/** `seconds` as an ISO timestamp, or ImpossibleStripeTime naming `field`. */
export function stripeTime(field: string, seconds: unknown, latest = LATEST_SECONDS): string {
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < EARLIEST_SECONDS || seconds > latest) {
    throw new ImpossibleStripeTime(field, seconds);
  }
  return new Date(seconds * 1000).toISOString();
}

/** An event's `created` as an ISO timestamp: a possible Stripe time, and not in the future. */
export function eventCreatedTime(seconds: unknown, nowMs = Date.now()): string {
  return stripeTime('created', seconds, Math.floor(nowMs / 1000) + EVENT_CLOCK_DRIFT_SECONDS);
}
