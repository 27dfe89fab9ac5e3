import { describe, expect, it } from 'vitest';
import { recoverableUserId, RECOVERY_WINDOW_SECONDS, type CheckoutFacts } from './checkout-recovery.ts';

const now = 1_800_000_000;
const paid: CheckoutFacts = {
  status: 'complete',
  payment_status: 'paid',
  created: now - 60,
  customer_email: null,
  customer_details: { email: 'ada@example.com' },
  metadata: { user_id: 'user-1' },
  client_reference_id: 'user-1',
};

describe('recoverableUserId', () => {
  it('accepts a complete, paid, recent checkout for the same e-mail (case and spaces ignored)', () => {
    expect(recoverableUserId(paid, ' ADA@example.com ', now)).toBe('user-1');
  });
  it('refuses an unpaid or unfinished checkout', () => {
    expect(recoverableUserId({ ...paid, payment_status: 'unpaid' }, 'ada@example.com', now)).toBeNull();
    expect(recoverableUserId({ ...paid, status: 'open' }, 'ada@example.com', now)).toBeNull();
    expect(recoverableUserId({ ...paid, status: 'expired' }, 'ada@example.com', now)).toBeNull();
  });
  it('refuses a stale checkout, older than 24 hours', () => {
    expect(recoverableUserId({ ...paid, created: now - RECOVERY_WINDOW_SECONDS }, 'ada@example.com', now)).toBe('user-1');
    expect(recoverableUserId({ ...paid, created: now - RECOVERY_WINDOW_SECONDS - 1 }, 'ada@example.com', now)).toBeNull();
  });
  it('refuses a checkout dated in the future', () => {
    expect(recoverableUserId({ ...paid, created: now + 3600 }, 'ada@example.com', now)).toBeNull();
  });
  it("refuses someone else's checkout", () => {
    expect(recoverableUserId(paid, 'mallory@example.com', now)).toBeNull();
  });
  it('refuses a checkout with no e-mail or no user', () => {
    expect(recoverableUserId({ ...paid, customer_details: null }, 'ada@example.com', now)).toBeNull();
    expect(recoverableUserId({ ...paid, metadata: {}, client_reference_id: null }, 'ada@example.com', now)).toBeNull();
  });
  it('falls back to customer_email and client_reference_id', () => {
    expect(recoverableUserId({ ...paid, customer_details: null, customer_email: 'ada@example.com', metadata: null }, 'ada@example.com', now)).toBe('user-1');
  });
});
