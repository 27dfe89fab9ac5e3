// The worker's settings are read and checked in one place: without one it needs it does not
// start, and the error names every missing or malformed setting at once. Local values reach it
// only because the local stack passes them.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../local/config.ts';
import { loadWorkerConfig } from '../../worker/config.ts';
import { workerEnv } from '../../local/worker.ts';

const production = {
  WORKER_DATABASE_URL: 'postgresql://postgres:pw@db.abcdefghijklmnop.supabase.co:5432/postgres',
  SUPABASE_URL: 'https://abcdefghijklmnop.supabase.co',
  SUPABASE_SERVICE_ROLE_KEY: 'service-role',
  TOKEN_ENCRYPTION_KEYS: 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
};

describe('the worker settings', () => {
  it('without any, the error names every required one', () => {
    expect(() => loadWorkerConfig({})).toThrow(
      /^Worker misconfigured: WORKER_DATABASE_URL is not set; SUPABASE_URL is not set; SUPABASE_SERVICE_ROLE_KEY is not set; TOKEN_ENCRYPTION_KEYS is not set \(docs\/deploy\.md, section 10\)\.$/,
    );
  });

  it('names malformed settings with the missing ones', () => {
    expect(() =>
      loadWorkerConfig({
        ...production,
        SUPABASE_URL: 'abcdefghijklmnop.supabase.co',
        WORKER_CONCURRENCY: '0',
        TOKEN_ENCRYPTION_KEYS: '',
      }),
    ).toThrow(
      /SUPABASE_URL is not a URL; TOKEN_ENCRYPTION_KEYS is not set; WORKER_CONCURRENCY must be an integer >= 1, got "0"/,
    );
    expect(() => loadWorkerConfig({ ...production, WORKER_DATABASE_URL: 'https://db.example.com' })).toThrow(
      /WORKER_DATABASE_URL must be a postgres: or postgresql: URL/,
    );
  });

  it('transcribes offline with pocketsphinx unless told to use OpenAI, which then needs its key', () => {
    expect(loadWorkerConfig(production).transcription).toMatchObject({
      engine: 'pocketsphinx',
      timeLimitSeconds: 1800,
      pocketsphinx: { binary: '/usr/bin/pocketsphinx_continuous', modelDir: '/usr/share/pocketsphinx/model/en-us', parallel: os.availableParallelism() },
    });
    expect(loadWorkerConfig({ ...production, POCKETSPHINX_PARALLEL: '1' }).transcription.pocketsphinx.parallel).toBe(1);
    expect(() => loadWorkerConfig({ ...production, POCKETSPHINX_PARALLEL: '0' })).toThrow(/POCKETSPHINX_PARALLEL/);
    expect(() => loadWorkerConfig({ ...production, TRANSCRIPTION_ENGINE: 'openai' })).toThrow(/OPENAI_API_KEY is not set/);
    expect(loadWorkerConfig({ ...production, TRANSCRIPTION_ENGINE: 'openai', OPENAI_API_KEY: 'sk-1' }).transcription.openai).toEqual({ apiKey: 'sk-1', baseUrl: null, model: 'whisper-1' });
    expect(() => loadWorkerConfig({ ...production, TRANSCRIPTION_ENGINE: 'whisper' })).toThrow(/TRANSCRIPTION_ENGINE must be pocketsphinx or openai, got "whisper"/);
  });

  it('writes offline unless told to use an OpenAI-compatible API, which then needs its key, within its checked settings', () => {
    expect(loadWorkerConfig(production).writing).toEqual({
      engine: 'extractive',
      openai: { apiKey: '', baseUrl: null, model: 'gpt-4o-mini' },
      contextTokens: 16_000,
      timeoutSeconds: 120,
      parallel: 4,
      pricePerMillion: { input: 0.15, output: 0.6 },
      promptsDir: null,
    });
    expect(() => loadWorkerConfig({ ...production, WRITING_ENGINE: 'openai' })).toThrow(/WRITING_API_KEY is not set/);
    const ollama = { ...production, WRITING_ENGINE: 'openai', WRITING_API_KEY: 'ollama', WRITING_BASE_URL: 'http://localhost:11434/v1/', WRITING_MODEL: 'llama3.1', WRITING_PRICE_INPUT_PER_MILLION: '0', WRITING_PRICE_OUTPUT_PER_MILLION: '0' };
    expect(loadWorkerConfig(ollama).writing).toMatchObject({ engine: 'openai', openai: { apiKey: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' }, pricePerMillion: { input: 0, output: 0 } });
    expect(() => loadWorkerConfig({ ...ollama, WRITING_BASE_URL: 'http://llm.example.com/v1' })).toThrow(/WRITING_BASE_URL must be an https: URL \(plain http only for a loopback address\)/);
    expect(() => loadWorkerConfig({ ...production, WRITING_ENGINE: 'gpt' })).toThrow(/WRITING_ENGINE must be extractive or openai, got "gpt"/);
    expect(() => loadWorkerConfig({ ...production, WRITING_CONTEXT_TOKENS: '1000', WRITING_PRICE_INPUT_PER_MILLION: '-1' })).toThrow(
      /WRITING_CONTEXT_TOKENS must be an integer >= 4000, got "1000"; WRITING_PRICE_INPUT_PER_MILLION must be a number >= 0, got "-1"/,
    );
  });

  it("takes an operator's prompts only from a directory that exists, each keeping its marks", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-prompts-'));
    try {
      expect(() => loadWorkerConfig({ ...production, WRITING_PROMPTS_DIR: path.join(dir, 'none') })).toThrow(/WRITING_PROMPTS_DIR: .* does not exist/);
      writeFileSync(path.join(dir, 'piece.md'), 'Write notes on {{podcast}} {{episode}} {{part}}.');
      expect(() => loadWorkerConfig({ ...production, WRITING_PROMPTS_DIR: dir })).toThrow(/WRITING_PROMPTS_DIR\/piece\.md lacks \{\{transcript\}\}/);
      writeFileSync(path.join(dir, 'piece.md'), 'Write notes on {{podcast}} {{episode}} {{part}}:\n{{transcript}}');
      expect(loadWorkerConfig({ ...production, WRITING_PROMPTS_DIR: dir }).writing.promptsDir).toBe(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('talks to the platforms themselves unless told otherwise', () => {
    const config = loadWorkerConfig(production);
    expect(config).toMatchObject({
      googleApiBase: 'https://www.googleapis.com',
      xApiBase: 'https://api.x.com',
      linkedinApiBase: 'https://api.linkedin.com',
      concurrency: 1,
    });
  });

  it('sends tokens and words over plain http only to this machine (issue 39, item 9)', () => {
    const openai = { ...production, TRANSCRIPTION_ENGINE: 'openai', OPENAI_API_KEY: 'sk-1' };
    expect(() => loadWorkerConfig({ ...openai, OPENAI_BASE_URL: 'http://whisper.example.com/v1' })).toThrow(
      /OPENAI_BASE_URL must be an https: URL \(plain http only for a loopback address\), got "http:\/\/whisper\.example\.com\/v1"/,
    );
    expect(() => loadWorkerConfig({ ...production, LINKEDIN_API_BASE: 'http://10.0.0.5:8080' })).toThrow(/LINKEDIN_API_BASE must be an https: URL/);
    for (const local of ['http://127.0.0.1:54330/v1', 'http://localhost:11434/v1', 'http://[::1]:8000/v1', 'https://api.groq.com/openai/v1']) {
      expect(loadWorkerConfig({ ...openai, OPENAI_BASE_URL: local }).transcription.openai.baseUrl).toBe(local.replace(/\/$/, ''));
    }
  });

  it('starts with exactly what the local stack passes it, pointed at its sandbox', () => {
    const stack = loadConfig('test');
    const config = loadWorkerConfig(workerEnv(stack));
    expect(config).toMatchObject({
      supabaseUrl: stack.urls.api,
      databaseUrl: stack.urls.db,
      googleApiBase: stack.urls.sandbox,
      // The test stack writes with the sandbox: the chat engine's whole path runs offline.
      writing: { engine: 'openai', openai: { baseUrl: `${stack.urls.sandbox}/v1` }, timeoutSeconds: 5 },
    });
    // npm start writes offline unless .env says otherwise.
    const dev = loadConfig('dev');
    expect(loadWorkerConfig(workerEnv(dev)).writing.engine).toBe(dev.env.WRITING_ENGINE || 'extractive');
  });

  it('reads its environment only through worker/config.ts', () => {
    const workerDir = path.resolve(import.meta.dirname, '..', '..', 'worker');
    const sources = (dir: string): string[] =>
      readdirSync(dir).flatMap((entry) => {
        const file = path.join(dir, entry);
        if (statSync(file).isDirectory()) return entry === 'node_modules' ? [] : sources(file);
        return entry.endsWith('.ts') && !entry.endsWith('.test.ts') ? [file] : [];
      });
    const readers = sources(workerDir).filter((file) =>
      /\bprocess\.env\b|\bSITE_URL\b/.test(readFileSync(file, 'utf8')),
    );
    expect(readers.map((file) => path.relative(workerDir, file))).toEqual(['config.ts']);
  });
});
