// The worker's guard for the subscriber's WordPress site (issue 23, item 7): the address is
// judged on what the name resolves to, the sandbox passes only by configuration, and an answer
// that never ends is cut off at the cap.
import { describe, expect, it } from 'vitest';
import { USER_SITE_ANSWER_MAX_BYTES } from '../../supabase/functions/_shared/domain-server/capped-response.ts';
import { ProcessingFailure } from '../failure.ts';
import { assertPublicSite, siteJson } from './user-site.ts';

/** A 200 whose body never ends, counting what was pulled from it. */
function endlessAnswer(): { res: Response; pulled: () => number } {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(97);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { res: new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }), pulled: () => pulled };
}

describe('assertPublicSite', () => {
  it.each(['http://localhost:8080/wp-json', 'https://[::ffff:7f00:1]/', 'https://[::]/', 'https://[0:0:0:0:0:ffff:127.0.0.1]/', 'https://[64:ff9b::a00:1]/', 'https://192.168.1.20/'])(
    'refuses %s as a permanent failure (only reconnecting helps)',
    async (site) => {
      const refusal = await assertPublicSite(new URL(site), []).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ProcessingFailure);
      expect((refusal as ProcessingFailure).permanent).toBe(true);
      expect((refusal as ProcessingFailure).message).toMatch(/not on a public internet address/);
    },
  );

  it('lets the configured sandbox origin through, and only it', async () => {
    await expect(assertPublicSite(new URL('http://127.0.0.1:54399/wordpress/a/wp-json/wp/v2/media'), ['http://127.0.0.1:54399'])).resolves.toBeUndefined();
    await expect(assertPublicSite(new URL('http://127.0.0.1:5432/'), ['http://127.0.0.1:54399'])).rejects.toBeInstanceOf(ProcessingFailure);
  });

  it('lets a public address through', async () => {
    await expect(assertPublicSite(new URL('https://93.184.215.14/'), [])).resolves.toBeUndefined();
  });
});

describe('siteJson', () => {
  it('cuts off an answer that never ends at the cap', async () => {
    const { res, pulled } = endlessAnswer();
    await expect(siteJson(res, 'Uploading to WordPress')).rejects.toThrow(`Uploading to WordPress: the answer is larger than ${USER_SITE_ANSWER_MAX_BYTES} bytes`);
    expect(pulled()).toBeLessThan(USER_SITE_ANSWER_MAX_BYTES + 3 * 64 * 1024);
  });

  it('reads a refusal as a ProcessingFailure with its status', async () => {
    const refusal = await siteJson(Response.json({ code: 'rest_forbidden' }, { status: 403 }), 'Posting to WordPress').catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 403, message: 'Posting to WordPress: 403 {"code":"rest_forbidden"}' });
  });
});
