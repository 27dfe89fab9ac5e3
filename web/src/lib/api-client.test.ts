// Answers are parsed, not cast: an answer of another shape is a failed request with a message
// that says what was not understood, and a matching one comes back as parsed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { ApiError, apiLoad, apiRequest } from './api-client';

vi.mock('./supabase', () => ({ currentAccessToken: async () => null }));

afterEach(() => vi.unstubAllGlobals());

const answer = (body: string, status = 200) => vi.stubGlobal('fetch', async () => new Response(body, { status }));
const checkout = z.object({ checkoutUrl: z.string() });

describe('apiRequest', () => {
  it('answers the parsed value, without keys the schema does not name', async () => {
    answer('{"checkoutUrl":"https://checkout.example/1","extra":true}');
    await expect(apiRequest('POST', '/api/create-checkout-session', checkout)).resolves.toEqual({ checkoutUrl: 'https://checkout.example/1' });
  });

  it('fails with a clear message when the answer has another shape', async () => {
    answer('{"checkoutUrl":42}');
    const error = await apiRequest('POST', '/api/create-checkout-session', checkout).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toMatch(/^The server's answer to POST \/api\/create-checkout-session was not understood \(checkoutUrl: .+\)\. Please reload the page or try again later\.$/);
  });

  it('fails with a clear message when a successful answer is not JSON', async () => {
    answer('<html>proxy page</html>');
    await expect(apiRequest('GET', '/api/episodes', z.array(z.string()))).rejects.toThrow(/GET \/api\/episodes was not understood \(not JSON\)/);
  });

  it('still answers a signed-out load with null', async () => {
    answer('{"message":"Unauthorized"}', 401);
    await expect(apiLoad('/api/episodes', z.array(z.string()))).resolves.toBeNull();
  });
});
