// What every Stripe resource uses: ids, times, lists, money.
import { randomBytes } from 'node:crypto';

export type Json = Record<string, unknown>;
export type Metadata = Record<string, string>;

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A Stripe-looking id: `prefix` + 24 random base62 characters. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `${prefix}${out}`;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The same day and time one calendar month later (clamped to the month's last day). */
export function addMonths(unixSeconds: number, months: number): number {
  const d = new Date(unixSeconds * 1000);
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

/** `{ object: 'list', ... }` as every Stripe list endpoint returns it. */
export function list<T>(url: string, data: T[], hasMore = false): Json {
  return { object: 'list', data, has_more: hasMore, url };
}

/** Formats an amount in the smallest currency unit: 19900 usd -> "$199.00". */
export function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
}
