// errorMessage with the submission's fallbacks (the dialog's toasts: submit-episode-dialog.test.tsx):
// an error that is not a response gets 'Failed to submit episode', and other toasts, without the
// fallbacks, keep the '{status}: {text}' message.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, errorMessage, ignoredAnswer } from '@/lib/api-client';
import { episodeTexts } from '../texts';

vi.mock('@/lib/supabase', () => ({ currentAccessToken: async () => null }));

afterEach(() => vi.unstubAllGlobals());

/** The error apiRequest throws when the server answers `body` with `status` and `statusText`. */
async function failureOf(status: number, statusText: string, body: string, contentType = 'application/json') {
  vi.stubGlobal('fetch', async () => new Response(body || null, { status, statusText, headers: { 'Content-Type': contentType } }));
  return apiRequest('POST', '/api/episodes/submit-direct-storage', ignoredAnswer, { body: {} }).then(
    () => expect.fail('the request should fail'),
    (error: unknown) => error,
  );
}

const submissionToast = (error: unknown) => errorMessage(error, episodeTexts.submitFailed, episodeTexts.serverError);

describe('the submission fallbacks of errorMessage', () => {
  it('shows the fallback for an error that is not a response', () => {
    expect(submissionToast('offline')).toBe('Failed to submit episode');
  });

  it("leaves the other toasts' '{status}: {text}' message as it was", async () => {
    const error = await failureOf(502, 'Bad Gateway', '<html>proxy</html>', 'text/html');
    expect(errorMessage(error, 'fallback')).toBe('502: <html>proxy</html>');
    expect(errorMessage(await failureOf(409, 'Conflict', '{"message":"taken"}'), 'fallback')).toBe('409: taken');
  });
});
