// The writing engine's requests and the chat sandbox's answers held against OpenAI's published
// OpenAPI description of POST /chat/completions (openai-chat-contract.yaml, trimmed from
// github.com/openai/openai-openapi by openai-chat-trim.ts): every request the official SDK sends
// for the engine is a CreateChatCompletionRequest, every answer a CreateChatCompletionResponse
// (a written one and a refusal alike), every error an ErrorResponse. So the sandbox the tests
// write with answers as OpenAI does, and the engine asks as OpenAI reads.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SANDBOX_OPENAI_API_KEY } from '../../local/sandbox/openai/index.ts';
import type { WritingSettings } from '../../worker/config.ts';
import { chatEngine } from '../../worker/writing/chat/engine.ts';
import { noUsage, WritingFailure } from '../../worker/writing/writing.ts';
import { generatedTranscript } from '../support/generated-transcript.ts';
import { config } from '../support/stack.ts';

type Json = Record<string, unknown>;
const doc = parse(readFileSync(path.join(import.meta.dirname, 'openai-chat-contract.yaml'), 'utf8')) as { components: { schemas: Json } };

/**
 * The description is OpenAPI 3.1 but keeps 3.0's `nullable: true` in places, some beside no
 * `type` (a oneOf): each is read as what it means, "or null".
 */
function orNull(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(orNull);
  if (value === null || typeof value !== 'object') return value;
  const { nullable, ...rest } = value as Json;
  const own = Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, orNull(item)]));
  return nullable === true ? { anyOf: [{ type: 'null' }, own] } : own;
}

// Strict: an unknown keyword is an error, not a silent pass. OpenAI's oneOf unions name their
// `discriminator` (ajv checks it) without always saying `type: object` beside it (strictTypes off).
const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true, discriminator: true });
(addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020)(ajv);
// OpenAI's own format: seconds since the epoch.
ajv.addFormat('unixtime', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 });
const definitions = JSON.parse(JSON.stringify(orNull(doc.components.schemas)).replaceAll('"#/components/schemas/', '"openai#/$defs/')) as Json;
ajv.addSchema({ $id: 'openai', $defs: definitions });
const schema = (name: string) => ajv.getSchema(`openai#/$defs/${name}`) as ValidateFunction;
const errorsOf = (name: string, value: unknown) => {
  const validate = schema(name);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
};

interface Exchange {
  request: { messages: { content: string }[] };
  status: number;
  answer: unknown;
}
const sandbox = (route: string, init?: RequestInit) => fetch(`${config.urls.sandbox}${route}`, init);
const exchangesSaying = async (text: string) =>
  ((await (await sandbox('/_sandbox/openai/chat/exchanges')).json()) as { exchanges: Exchange[] }).exchanges.filter((e) => e.request.messages.some((m) => m.content.includes(text)));
const behave = (body: Json) => sandbox('/_sandbox/openai/chat/behaviour', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const settings: WritingSettings = {
  engine: 'openai',
  openai: { apiKey: SANDBOX_OPENAI_API_KEY, baseUrl: `${config.urls.sandbox}/v1`, model: 'gpt-4o-mini' },
  contextTokens: 16_000,
  timeoutSeconds: 10,
  parallel: 2,
  pricePerMillion: { input: 0.15, output: 0.6 },
  promptsDir: null,
};

function input(show: string) {
  const transcript = generatedTranscript(8);
  return {
    language: 'en',
    podcast: { title: show, description: null, author: 'Sam Host', keywords: null },
    episode: { title: 'episode-1', titleConfirmed: false, guests: [] },
    transcript,
    at: 0,
    clips: [{ start: 60, end: 90, sentences: { first: 12, end: 18 } }],
  };
}

describe("OpenAI's chat completions, as the writing engine and the sandbox speak them", () => {
  it('the engine asks as OpenAI reads and the sandbox answers as OpenAI writes', async () => {
    const show = `Contract Show ${Date.now()}`;
    await chatEngine(settings).write(input(show), noUsage(), new AbortController().signal);
    const exchanges = await exchangesSaying(show);
    expect(exchanges).toHaveLength(3);
    for (const exchange of exchanges) {
      expect(errorsOf('CreateChatCompletionRequest', exchange.request)).toEqual([]);
      expect(exchange.status).toBe(200);
      expect(errorsOf('CreateChatCompletionResponse', exchange.answer)).toEqual([]);
    }
    // What the contract holds the sandbox to is not empty: a wrong answer fails it.
    expect(errorsOf('CreateChatCompletionResponse', { ...(exchanges[0].answer as Json), choices: [{ index: 0, message: { content: 'x' } }] })).not.toEqual([]);
    expect(errorsOf('CreateChatCompletionRequest', { ...exchanges[0].request, response_format: { type: 'json_schema', json_schema: { schema: {} } } })).not.toEqual([]);
  });

  it('a refusal is an answer in the same shape, and errors are ErrorResponses', async () => {
    const show = `Refusal Contract ${Date.now()}`;
    expect((await behave({ mode: 'refusal', count: 2, match: show })).status).toBe(200);
    await expect(chatEngine(settings).write(input(show), noUsage(), new AbortController().signal)).rejects.toThrow(WritingFailure);
    const [refused] = await exchangesSaying(show);
    expect(errorsOf('CreateChatCompletionResponse', refused.answer)).toEqual([]);
    expect(refused.answer).toMatchObject({ choices: [{ message: { content: null, refusal: expect.any(String) } }] });

    expect((await behave({ mode: 'error', count: 1, match: `${show} again` })).status).toBe(200);
    const body = { ...refused.request, messages: [...refused.request.messages, { role: 'user', content: `${show} again` }] };
    const failed = await sandbox('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${SANDBOX_OPENAI_API_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(failed.status).toBe(500);
    expect(errorsOf('ErrorResponse', await failed.json())).toEqual([]);
    for (const [key, sent, status] of [
      ['sk-wrong', body, 401],
      [SANDBOX_OPENAI_API_KEY, { ...body, model: undefined }, 400],
      [SANDBOX_OPENAI_API_KEY, { ...body, messages: [] }, 400],
    ] as const) {
      const answer = await sandbox('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(sent) });
      expect(answer.status).toBe(status);
      expect(errorsOf('ErrorResponse', await answer.json())).toEqual([]);
    }
  });

  it('the sandbox refuses behaviours it does not know', async () => {
    expect((await behave({ mode: 'slow' })).status).toBe(400);
    expect((await behave({ mode: 'refusal', count: 0 })).status).toBe(400);
    expect((await behave({ reset: true })).status).toBe(200);
  });
});
