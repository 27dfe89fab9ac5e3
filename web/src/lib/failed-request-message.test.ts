import { describe, expect, it } from 'vitest';
import { failedRequestMessage } from './failed-request-message';

describe("the failed-request message '{status}: {text}'", () => {
  it('uses the response text', () => {
    expect(failedRequestMessage(500, 'Internal Server Error', 'database unavailable')).toBe('500: database unavailable');
  });
  it('uses the message of a JSON error body', () => {
    expect(failedRequestMessage(409, 'Conflict', '{"message":"User already registered"}')).toBe('409: User already registered');
  });
  it('falls back to the status text when the body is empty', () => {
    expect(failedRequestMessage(404, 'Not Found', '')).toBe('404: Not Found');
    expect(failedRequestMessage(502, 'Bad Gateway', '   ')).toBe('502: Bad Gateway');
  });
  it('keeps JSON without a message as text', () => {
    expect(failedRequestMessage(400, 'Bad Request', '{"error":"x"}')).toBe('400: {"error":"x"}');
  });
});
