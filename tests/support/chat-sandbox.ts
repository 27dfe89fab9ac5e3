// The OpenAI chat-completions sandbox (local/sandbox/openai/chat.ts) on a port of its own, for
// tests that drive the writing engine without a stack: its route on a bare HTTP server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_OPENAI_API_KEY } from '../../local/sandbox/openai/index.ts';
import { chatSandbox, type ChatExchange, type CHAT_BEHAVIOURS } from '../../local/sandbox/openai/chat.ts';
import { readBody } from '../../local/sandbox/http.ts';

export interface RunningChatSandbox {
  /** The API base the SDK is given (`…/v1`). */
  baseUrl: string;
  behave(mode: (typeof CHAT_BEHAVIOURS)[number], count?: number, match?: string): void;
  /** The last requests and answers (the sandbox keeps 200). */
  exchanges: ChatExchange[];
  stop(): Promise<void>;
}

/** `latencyMs`: each answer waits this long first, as a hosted model's would (the benches' stated latency). */
export async function startChatSandbox({ latencyMs = 0 }: { latencyMs?: number } = {}): Promise<RunningChatSandbox> {
  const chat = chatSandbox(SANDBOX_OPENAI_API_KEY);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    void readBody(req)
      .then((body) => new Promise<typeof body>((resolve) => setTimeout(resolve, latencyMs, body)))
      .then((body) => chat.completions({ req, res, method: 'POST', url, params: {}, body }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    behave: (mode, count = 1, match) => chat.queued.push({ mode, count, match: match ?? null }),
    exchanges: chat.exchanges,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
