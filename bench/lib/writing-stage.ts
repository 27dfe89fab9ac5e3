// The writing stage alone (worker/writing/stage.ts) on a generated transcript of a given length
// with three clips, by the chat engine against the sandbox (answering after a stated latency,
// as a hosted model would) or by the offline engine: its time, requests and tokens.

export interface WritingStageRun {
  seconds: number;
  requests: number;
  tokens: number;
}

/** The worker's default writing settings against a sandbox at `baseUrl`. */
async function writingSettings(baseUrl: string) {
  const { SANDBOX_OPENAI_API_KEY } = await import('../../local/sandbox/openai/index.ts');
  return {
    engine: 'openai' as const,
    openai: { apiKey: SANDBOX_OPENAI_API_KEY, baseUrl, model: 'gpt-4o-mini' },
    contextTokens: 16_000,
    timeoutSeconds: 120,
    parallel: 4,
    pricePerMillion: { input: 0.15, output: 0.6 },
    promptsDir: null,
  };
}

/** A sandbox for the chat engine, answering after `latencyMs`, and a way to time the stage against it. */
export async function writingStageTimer({ latencyMs = 0 }: { latencyMs?: number } = {}) {
  const { startChatSandbox } = await import('../../tests/support/chat-sandbox.ts');
  const { generatedTranscript } = await import('../../tests/support/generated-transcript.ts');
  const { writeEpisode } = await import('../../worker/writing/stage.ts');
  const { extractiveEngine } = await import('../../worker/writing/extractive.ts');
  const sandbox = await startChatSandbox({ latencyMs });
  const settings = await writingSettings(sandbox.baseUrl);
  return {
    async time(minutes: number, engine: 'chat' | 'offline'): Promise<WritingStageRun> {
      const transcript = generatedTranscript(minutes, 6);
      const clips = [0.2, 0.5, 0.8].map((share) => {
        const first = Math.floor(transcript.sentences.length * share);
        return { start: transcript.sentences[first].start, end: transcript.sentences[first + 5].end, sentences: { first, end: first + 6 } };
      });
      const input = { language: 'en', podcast: { title: 'Bench Show', description: null, author: null, keywords: null }, episode: { title: 'bench', titleConfirmed: false, guests: [] }, transcript, at: 0, clips };
      const began = process.hrtime.bigint();
      const offline = engine === 'offline';
      const { spend } = await writeEpisode({ ...settings, engine: offline ? 'extractive' : 'openai' }, input, new AbortController().signal, offline ? extractiveEngine : undefined);
      return { seconds: Number(process.hrtime.bigint() - began) / 1e9, requests: spend.requests, tokens: spend.promptTokens + spend.completionTokens };
    },
    stop: () => sandbox.stop(),
  };
}

/** A row's detail for one run. */
export const writingDetail = (run: WritingStageRun) => `${run.seconds.toFixed(2)} s; ${run.requests} requests, ${run.tokens} tokens`;
