import { describe, expect, it } from 'vitest';
import { parseForm } from '../../local/sandbox/form.ts';

describe('parseForm (Stripe-style nested form bodies)', () => {
  it('builds nested objects and index arrays', () => {
    const body =
      'mode=subscription&line_items[0][price]=price_a&line_items[0][quantity]=2&line_items[1][price]=price_b' +
      '&metadata[user_id]=u1&subscription_data[metadata][x]=y&expand[0]=line_items&expand[1]=subscription';
    expect(parseForm(body.replaceAll('[', '%5B').replaceAll(']', '%5D'))).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'price_a', quantity: '2' }, { price: 'price_b' }],
      metadata: { user_id: 'u1' },
      subscription_data: { metadata: { x: 'y' } },
      expand: ['line_items', 'subscription'],
    });
  });

  it('orders array items by index, appends with [] and keeps empty strings (unset)', () => {
    expect(parseForm('a[1]=second&a[0]=first&b[]=x&b[]=y&metadata=')).toEqual({
      a: ['first', 'second'],
      b: ['x', 'y'],
      metadata: '',
    });
  });

  it('ignores prototype keys and malformed brackets', () => {
    const parsed = parseForm('__proto__[polluted]=1&a[__proto__][x]=1&c[d=1&ok=1');
    expect(parsed).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
