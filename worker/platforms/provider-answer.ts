// Answers from the platforms' APIs (Google Drive, YouTube, X, LinkedIn), read only up to a cap
// whatever the platform sends: a refusal becomes a ProcessingFailure with the start of its text, a success
// is parsed as JSON.
import { PROVIDER_ANSWER_MAX_BYTES, readCappedJson, readCappedText } from '../../supabase/functions/_shared/domain-server/capped-response.ts';
import { ProcessingFailure } from '../failure.ts';

/** `res` when it succeeded; otherwise a ProcessingFailure saying `what` failed, `who` answered and how. */
export async function check(res: Response, what: string, who = ''): Promise<Response> {
  if (res.ok) return res;
  const text = await readCappedText(res, PROVIDER_ANSWER_MAX_BYTES).catch(() => '(answer not read)');
  throw ProcessingFailure.refusal(res.status, `${what}: ${who ? `${who} answered ` : ''}${res.status} ${text.slice(0, 300)}`);
}

/** A successful answer's JSON, read up to the cap; a refusal, a larger or a non-JSON answer is a ProcessingFailure. */
export async function answerJson<T = unknown>(res: Response, what: string, who = ''): Promise<T> {
  await check(res, what, who);
  const body = await readCappedJson(res, PROVIDER_ANSWER_MAX_BYTES).catch(() => undefined);
  if (body === undefined) throw ProcessingFailure.refusal(502, `${what}: the answer was not JSON of at most ${PROVIDER_ANSWER_MAX_BYTES} bytes`);
  return body as T;
}

/**
 * `fetch` for an SDK that reads a provider's whole answer itself (OpenAI's): the body is read here
 * up to `limitBytes` and handed on whole; a larger answer is refused as a failed request.
 */
export function cappedFetch(limitBytes: number): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!res.body) return res;
    const text = await readCappedText(res, limitBytes);
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
