// OpenAI's chat-completions API as the worker's writing engine calls it through the official SDK:
//   POST /v1/chat/completions (JSON: model, messages, response_format json_schema), Bearer
//   SANDBOX_OPENAI_API_KEY, answering a `chat.completion` in the API's own shape, its message's
//   content the structured JSON (writer.ts builds it from the request's words), with usage.
// Sandbox-only controls, like the other sandboxes' fail-next:
//   POST /_sandbox/openai/chat/behaviour {mode, count?, match?}  the next `count` (1) requests whose
//        messages contain `match` (any, unset) are answered so: refusal (a structured-output
//        refusal), timeout (no answer until the client gives up), invalid-json, wrong-schema, error
//        (a 500), unfaithful (writer.ts); {reset: true} forgets every one queued.
//   GET  /_sandbox/openai/chat/exchanges                         the last requests and answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../../lib/http.ts';
import type { SandboxRequest } from '../types.ts';
import { SANDBOX_SCHEMAS, sandboxAnswer, type SandboxSchema } from './writer.ts';

export const CHAT_BEHAVIOURS = ['refusal', 'timeout', 'invalid-json', 'wrong-schema', 'error', 'unfaithful'] as const;
type Behaviour = (typeof CHAT_BEHAVIOURS)[number];
/** A refusal as OpenAI words one. */
export const SANDBOX_REFUSAL = "I'm sorry, I can't help with that request.";
/** The longest a `timeout` request is held when its client never gives up. */
const HOLD_MS = 5 * 60_000;
const KEPT_EXCHANGES = 200;

export interface ChatExchange {
  request: unknown;
  status: number;
  answer: unknown;
}

const error = (message: string, type = 'invalid_request_error', code: string | null = null) => ({ error: { message, type, param: null, code } });

interface ChatBody {
  model?: unknown;
  messages?: { role?: unknown; content?: unknown }[];
  response_format?: { type?: unknown; json_schema?: { name?: unknown } };
}

const tokens = (text: string) => Math.ceil(text.length / 4);

function completion(model: string, content: string | null, refusal: string | null, promptText: string) {
  const completionTokens = tokens(content ?? refusal ?? '');
  const promptTokens = tokens(promptText);
  return {
    id: `chatcmpl-sandbox${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_castloop_sandbox',
  };
}

/** Holds the request until its client gives up (the SDK's timeout), or HOLD_MS. */
function hold(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.destroy();
      resolve();
    }, HOLD_MS);
    res.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
    req.resume();
  });
}

export function chatSandbox(apiKey: string) {
  const queued: { mode: Behaviour; count: number; match: string | null }[] = [];
  const exchanges: ChatExchange[] = [];
  const answer = (res: ServerResponse, request: unknown, status: number, body: unknown) => {
    exchanges.push({ request, status, answer: body });
    if (exchanges.length > KEPT_EXCHANGES) exchanges.shift();
    sendJson(res, status, body);
  };
  /** The behaviour queued for a request saying `text`, taken from the queue. */
  const behaviourFor = (text: string): Behaviour | null => {
    const found = queued.find((b) => b.match === null || text.includes(b.match));
    if (!found) return null;
    found.count -= 1;
    if (found.count <= 0) queued.splice(queued.indexOf(found), 1);
    return found.mode;
  };

  async function completions({ req, res, body }: SandboxRequest): Promise<void> {
    if (req.headers.authorization !== `Bearer ${apiKey}`) return sendJson(res, 401, error('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
    let request: ChatBody;
    try {
      request = JSON.parse(body.toString('utf8')) as ChatBody;
    } catch {
      return sendJson(res, 400, error('We could not parse the JSON body of your request.'));
    }
    if (typeof request.model !== 'string' || !request.model) return answer(res, request, 400, error("you must provide a model parameter"));
    if (!Array.isArray(request.messages) || !request.messages.length) return answer(res, request, 400, error("'messages' must contain at least one message"));
    const schema = request.response_format?.type === 'json_schema' ? request.response_format.json_schema?.name : undefined;
    if (!SANDBOX_SCHEMAS.includes(schema as SandboxSchema)) {
      return answer(res, request, 400, error(`The sandbox writes only the worker's structured answers (response_format json_schema named ${SANDBOX_SCHEMAS.join(', ')}).`));
    }
    const texts = request.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')));
    const prompt = texts[texts.length - 1];
    const behaviour = behaviourFor(texts.join('\n'));
    if (behaviour === 'timeout') return hold(req, res);
    if (behaviour === 'error') return answer(res, request, 500, error('The server had an error while processing your request.', 'server_error'));
    const model = request.model;
    const content =
      behaviour === 'invalid-json' ? '{"summary": "the answer stops here' :
      behaviour === 'wrong-schema' ? JSON.stringify({ notes: 'an answer in another shape' }) :
      behaviour === 'refusal' ? null :
      JSON.stringify(sandboxAnswer(schema as SandboxSchema, prompt, behaviour === 'unfaithful'));
    answer(res, request, 200, completion(model, content, behaviour === 'refusal' ? SANDBOX_REFUSAL : null, texts.join('\n')));
  }

  function setBehaviour({ res, body }: SandboxRequest): void {
    let input: { mode?: unknown; count?: unknown; match?: unknown; reset?: unknown };
    try {
      input = JSON.parse(body.toString('utf8') || '{}') as typeof input;
    } catch {
      return sendJson(res, 400, { message: 'The body must be JSON.' });
    }
    if (input.reset === true) {
      queued.length = 0;
      return sendJson(res, 200, { queued });
    }
    if (!CHAT_BEHAVIOURS.includes(input.mode as Behaviour)) return sendJson(res, 400, { message: `mode must be one of ${CHAT_BEHAVIOURS.join(', ')}` });
    const count = input.count === undefined ? 1 : Number(input.count);
    if (!Number.isInteger(count) || count < 1) return sendJson(res, 400, { message: 'count must be a positive integer' });
    if (input.match !== undefined && typeof input.match !== 'string') return sendJson(res, 400, { message: 'match must be text' });
    queued.push({ mode: input.mode as Behaviour, count, match: input.match ?? null });
    sendJson(res, 200, { queued });
  }

  return { completions, setBehaviour, showExchanges: ({ res }: SandboxRequest) => sendJson(res, 200, { exchanges }), exchanges, queued };
}
