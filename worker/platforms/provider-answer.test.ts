import { describe, expect, it } from 'vitest';
import { ProcessingFailure } from '../failure.ts';
import { answerJson, check } from './provider-answer.ts';

const endlessBody = () =>
  new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new Uint8Array(64 * 1024).fill(120));
    },
  });

describe('platform answers', () => {
  it('a refusal becomes a ProcessingFailure with its status and the start of its text, even when the text never ends', async () => {
    const refused = check(new Response(endlessBody(), { status: 403 }), 'Posting to X');
    await expect(refused).rejects.toBeInstanceOf(ProcessingFailure);
    await expect(refused).rejects.toMatchObject({ status: 403, message: 'Posting to X: 403 (answer not read)' });
    await expect(check(new Response('quota', { status: 429 }), 'Uploading', 'Google')).rejects.toMatchObject({ message: 'Uploading: Google answered 429 quota' });
  });

  it('a success is parsed as JSON; an endless or non-JSON one is a 502', async () => {
    expect(await answerJson<{ id: string }>(new Response('{"id":"v1"}'), 'Uploading')).toEqual({ id: 'v1' });
    await expect(answerJson(new Response(endlessBody()), 'Uploading')).rejects.toMatchObject({ status: 502 });
    await expect(answerJson(new Response('<html>'), 'Uploading')).rejects.toMatchObject({ status: 502 });
  });
});
