// One structured request to an OpenAI-compatible chat-completions API through the official SDK,
// tried at most twice: a timeout, a refusal, an answer that is not the asked JSON (or fails its
// check), a rate limit or a server error is tried once more; a second failure, or a refused
// request (a wrong key, an unknown model), is a WritingFailure with the reason. Every answer's
// tokens are counted, the failed ones' too. The SDK's own retries are off: this is the one.
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';
import type { WritingSettings } from '../../config.ts';
import { WritingFailure, type WritingUsage } from '../writing.ts';
import { PROVIDER_ANSWER_MAX_BYTES } from '../../../supabase/functions/_shared/domain-server/capped-response.ts';
import { cappedFetch } from '../../platforms/provider-answer.ts';

export interface ChatRequest<T> {
  /** The schema's name in the request (the sandbox answers by it). */
  name: string;
  schema: z.ZodType<T>;
  system: string;
  user: string;
  /** What is wrong with a parsed answer that makes it unusable, or null. */
  check?: (answer: T) => string | null;
}

/** Why one attempt failed, and whether another may succeed. */
interface Attempt {
  cause: string;
  retry: boolean;
}

const short = (text: string, length = 200) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

function attemptOf(error: unknown, timeoutSeconds: number): Attempt {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { cause: `did not answer within ${timeoutSeconds} seconds`, retry: true };
  if (error instanceof OpenAI.APIConnectionError) return { cause: `could not be reached (${short(error.message)})`, retry: true };
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    return { cause: `failed (${status} ${short(error.message)})`, retry: status === 408 || status === 409 || status === 429 || status >= 500 };
  }
  return { cause: `failed (${short((error as Error).message)})`, retry: false };
}

export type Ask = <T>(request: ChatRequest<T>, usage: WritingUsage, signal: AbortSignal) => Promise<T>;

export function chatClient(settings: Pick<WritingSettings, 'openai' | 'timeoutSeconds'>): Ask {
  const { apiKey, baseUrl, model } = settings.openai;
  // A structured answer is a few kilobytes: a provider's answer is read up to the platforms' cap.
  const client = new OpenAI({ apiKey, baseURL: baseUrl ?? undefined, maxRetries: 0, timeout: settings.timeoutSeconds * 1000, fetch: cappedFetch(PROVIDER_ANSWER_MAX_BYTES) });

  /** One attempt: the parsed answer, or why it failed. */
  async function once<T>(request: ChatRequest<T>, usage: WritingUsage, signal: AbortSignal): Promise<{ answer: T } | Attempt> {
    let completion: OpenAI.ChatCompletion;
    try {
      completion = await client.chat.completions.create(
        {
          model,
          messages: [
            { role: 'system', content: request.system },
            { role: 'user', content: request.user },
          ],
          response_format: zodResponseFormat(request.schema, request.name),
        },
        { signal },
      );
    } catch (error) {
      if (signal.aborted) throw error;
      return attemptOf(error, settings.timeoutSeconds);
    } finally {
      usage.requests += 1;
    }
    usage.promptTokens += completion.usage?.prompt_tokens ?? 0;
    usage.completionTokens += completion.usage?.completion_tokens ?? 0;
    const message = completion.choices[0]?.message;
    if (message?.refusal) return { cause: `declined to write ("${short(message.refusal)}")`, retry: true };
    if (completion.choices[0]?.finish_reason === 'length') return { cause: 'ran out of room before its answer ended', retry: true };
    let json: unknown;
    try {
      json = JSON.parse(message?.content ?? '');
    } catch {
      return { cause: 'answered with text that is not JSON', retry: true };
    }
    const parsed = request.schema.safeParse(json);
    if (!parsed.success) return { cause: `answered outside its schema (${short(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '))})`, retry: true };
    const problem = request.check?.(parsed.data) ?? null;
    return problem ? { cause: `gave an unusable answer (${problem})`, retry: true } : { answer: parsed.data };
  }

  return async function ask<T>(request: ChatRequest<T>, usage: WritingUsage, signal: AbortSignal): Promise<T> {
    const first = await once(request, usage, signal);
    if ('answer' in first) return first.answer;
    if (!first.retry) throw new WritingFailure(`The writing engine (${model}) ${first.cause}`);
    const second = await once(request, usage, signal);
    if ('answer' in second) return second.answer;
    throw new WritingFailure(`The writing engine (${model}) ${second.cause}, twice`);
  };
}
