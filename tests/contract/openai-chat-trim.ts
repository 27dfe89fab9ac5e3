// Writes tests/contract/openai-chat-contract.yaml from OpenAI's published OpenAPI description
// (github.com/openai/openai-openapi, openapi.json): POST /chat/completions' request body and JSON
// answer, the error answer, and every schema they reach; descriptions, examples and OpenAI's
// documentation extensions (x-oai*, x-stainless-*) dropped. Nothing else is changed.
//   npx tsx tests/contract/openai-chat-trim.ts <openapi.json> <commit> <date>
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';

type Json = { [key: string]: unknown };
const [source, commit, date] = process.argv.slice(2);
if (!source || !commit || !date) throw new Error('usage: openai-chat-trim.ts <openapi.json> <commit> <date>');
const doc = JSON.parse(readFileSync(source, 'utf8')) as { openapi: string; info: Json; paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };

const DROPPED = new Set(['description', 'example', 'examples']);
const dropped = (key: string) => DROPPED.has(key) || key.startsWith('x-oai') || key.startsWith('x-stainless');
const kept = new Map<string, unknown>();

/** `value` without documentation, each schema it refers to kept (once). `inProperties`: keys here are names, not keywords. */
function trim(value: unknown, inProperties = false): unknown {
  if (Array.isArray(value)) return value.map((item) => trim(item));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value as Json)) {
    if (!inProperties && dropped(key)) continue;
    if (key === '$ref' && typeof item === 'string') {
      const name = item.split('/').pop() as string;
      if (!kept.has(name)) {
        kept.set(name, null);
        kept.set(name, trim(doc.components.schemas[name]));
      }
    }
    out[key] = trim(item, !inProperties && key === 'properties');
  }
  return out;
}

const post = doc.paths['/chat/completions'].post as { requestBody: { content: Json }; responses: Record<string, { content?: Json }> };
const contract = {
  openapi: doc.openapi,
  info: { title: "OpenAI's chat completions: what the writing engine's contract test checks", version: String(doc.info.version) },
  paths: {
    '/chat/completions': {
      post: {
        requestBody: { required: true, content: { 'application/json': trim(post.requestBody.content['application/json']) } },
        responses: {
          '200': { description: 'OK', content: { 'application/json': trim(post.responses['200'].content?.['application/json']) } },
          default: { description: 'An error', content: { 'application/json': { schema: trim({ $ref: '#/components/schemas/ErrorResponse' }) } } },
        },
      },
    },
  },
  components: { schemas: Object.fromEntries([...kept.entries()].sort(([a], [b]) => a.localeCompare(b))) },
};
const header = [
  `# OpenAI's chat-completions API as its published OpenAPI description has it (github.com/openai/openai-openapi,`,
  `# openapi.json at ${commit}, ${date}; info.version ${String(doc.info.version)}), trimmed to what the writing`,
  `# engine's contract test checks: POST /chat/completions' request body, its JSON answer and the error answer,`,
  `# with every schema they reach. Descriptions, examples and the x-oai*/x-stainless-* documentation extensions`,
  `# are dropped; nothing else changes. Made by tests/contract/openai-chat-trim.ts: to refresh, run it on a newer`,
  `# openapi.json.`,
].join('\n');
writeFileSync(path.join(import.meta.dirname, 'openai-chat-contract.yaml'), `${header}\n${stringify(contract, { lineWidth: 0 })}`);
console.log(`${kept.size} schemas kept`);
