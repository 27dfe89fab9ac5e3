import { describe, expect, it } from 'vitest';
import { AnswerTooLargeError, readCappedText, readHead, readStreamCapped } from './capped-response.ts';

/** A body that never ends (1 KiB chunks), counting what was pulled and whether it was cancelled. */
function endless() {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.pulled += 1024;
      controller.enqueue(new Uint8Array(1024).fill(65));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

describe('capped reads', () => {
  it('an endless answer is cut off just past the cap, and the rest cancelled', async () => {
    const { stream, seen } = endless();
    await expect(readCappedText(new Response(stream), 10_000)).rejects.toBeInstanceOf(AnswerTooLargeError);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(20_000);
  });

  it('an announced length over the cap is refused before any byte is read', async () => {
    const { stream, seen } = endless();
    const res = new Response(stream, { headers: { 'content-length': '999999' } });
    await expect(readCappedText(res, 10)).rejects.toBeInstanceOf(AnswerTooLargeError);
    expect(seen.cancelled).toBe(true);
  });

  it('a body within the cap is read whole; a read that fails says so in the caller\'s words', async () => {
    expect(await readCappedText(new Response('{"ok":true}'), 100)).toBe('{"ok":true}');
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('reset'));
      },
    });
    await expect(readStreamCapped(broken, 100, () => new Error('too large'), () => new Error('unreadable'))).rejects.toThrow('unreadable');
  });

  it('readHead takes the first bytes of an endless body and cancels the rest', async () => {
    const { stream, seen } = endless();
    const head = await readHead(stream, 16);
    expect([...head]).toEqual(new Array(16).fill(65));
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(4096);
    expect((await readHead(new Response('abc').body!, 16)).byteLength).toBe(3);
  });
});
