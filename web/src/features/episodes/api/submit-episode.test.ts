// The episode submission's toast text for each kind of failed response (spec section 8): the
// server's message, else 'Failed to submit episode', or 'Server error ({status}): {statusText}'
// when the body is not readable JSON. Other toasts keep the '{status}: {text}' message.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, errorMessage } from '@/lib/api-client';
import { episodeTexts } from '../texts';

vi.mock('@/lib/supabase', () => ({ currentAccessToken: async () => null }));

afterEach(() => vi.unstubAllGlobals());

/** The error apiRequest throws when the server answers `body` with `status` and `statusText`. */
async function failureOf(status: number, statusText: string, body: string, contentType = 'application/json') {
  vi.stubGlobal('fetch', async () => new Response(body || null, { status, statusText, headers: { 'Content-Type': contentType } }));
  return apiRequest('POST', '/api/episodes/submit-direct-storage', {}).then(
    () => expect.fail('the request should fail'),
    (error: unknown) => error,
  );
}

const submissionToast = (error: unknown) => errorMessage(error, episodeTexts.submitFailed, episodeTexts.serverError);

describe('the submission failure toast', () => {
  it("shows the server's message", async () => {
    const error = await failureOf(409, 'Conflict', '{"message":"Monthly episode submission limit reached."}');
    expect(submissionToast(error)).toBe('Monthly episode submission limit reached.');
  });

  it("shows 'Failed to submit episode' for JSON without a message", async () => {
    expect(submissionToast(await failureOf(500, 'Internal Server Error', '{}'))).toBe('Failed to submit episode');
    expect(submissionToast(await failureOf(400, 'Bad Request', '{"message":"  "}'))).toBe('Failed to submit episode');
  });

  it('shows the status for a body that is not JSON: an HTML error page or nothing', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    expect(submissionToast(await failureOf(502, 'Bad Gateway', html, 'text/html'))).toBe('Server error (502): Bad Gateway');
    expect(submissionToast(await failureOf(503, 'Service Unavailable', ''))).toBe('Server error (503): Service Unavailable');
  });

  it('shows the fallback for an error that is not a response', () => {
    expect(submissionToast('offline')).toBe('Failed to submit episode');
  });

  it("leaves the other toasts' '{status}: {text}' message as it was", async () => {
    const error = await failureOf(502, 'Bad Gateway', '<html>proxy</html>', 'text/html');
    expect(errorMessage(error, 'fallback')).toBe('502: <html>proxy</html>');
    expect(errorMessage(await failureOf(409, 'Conflict', '{"message":"taken"}'), 'fallback')).toBe('409: taken');
  });
});
