// Shared by the auth contract tests: raw calls to /auth/v1, a supabase-js client that records
// every raw auth response, validation of those bodies against gotrue-contract.yaml, and the mailbox.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { parse } from 'yaml';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAuthService } from '../../local/auth/index.ts';
import type { AuthSettings } from '../../local/auth/settings.ts';
import type { LocalService } from '../../local/lib/service.ts';
import { repoRoot } from '../../local/config.ts';
import { config } from '../support/stack.ts';

// GoTrue's answers as its OpenAPI describes them, trimmed to what these tests check.
export const openapiPath = path.join(repoRoot, 'tests', 'contract', 'gotrue-contract.yaml');
export const versionHeader = 'x-supabase-api-version';

// ---------------------------------------------------------------- OpenAPI validation
type Json = Record<string, unknown>;
const doc = parse(readFileSync(openapiPath, 'utf8')) as Json;
const components = doc.components as { schemas: Json; responses: Json };
const paths = doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;

/** Points `#/components/schemas/X` refs at the schemas registered under the id `gotrue`. */
function rewriteRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"gotrue#/definitions/')) as T;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
// Strict: an unknown keyword or a misspelt `required` entry is an error, not a silent pass.
const ajv = new Ajv({ strict: true, allErrors: true });
addFormats(ajv);
// `optional` (on /settings sms_provider) is no JSON Schema keyword; kept as upstream wrote it.
ajv.addKeyword({ keyword: 'optional', schemaType: 'boolean' });
// GoTrue answers `phone: ""` for users without a phone; otherwise E.164-ish digits.
ajv.addFormat('phone', /^(\+?[0-9]{6,15})?$/);
ajv.addSchema({ $id: 'gotrue', definitions: rewriteRefs(components.schemas) });

/**
 * Error bodies as GoTrue sends them to clients of API version 2024-01-01: ErrorSchema with
 * `code` carrying the error code string (ErrorSchema documents the legacy integer `code`) and
 * `message`. Both required.
 */
const errorSchemaCopy = structuredClone(components.schemas.ErrorSchema) as { properties: Json };
errorSchemaCopy.properties.code = { type: 'string', minLength: 1 };
errorSchemaCopy.properties.message = { type: 'string', minLength: 1 };
const versionedErrorSchema = rewriteRefs({ ...errorSchemaCopy, required: ['code', 'message'] });

const compiled = new Map<string, ValidateFunction>();
function compile(key: string, schema: unknown): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema as Json);
    compiled.set(key, validate);
  }
  return validate;
}

export function userSchema(): ValidateFunction {
  return compile('user', { $ref: 'gotrue#/definitions/UserSchema' });
}
export function sessionSchema(): ValidateFunction {
  return compile('session', { $ref: 'gotrue#/definitions/AccessTokenResponseSchema' });
}
export function errorSchema(versioned = true): ValidateFunction {
  return versioned
    ? compile('error-versioned', versionedErrorSchema)
    : compile('error-legacy', { $ref: 'gotrue#/definitions/ErrorSchema' });
}

/** Answers the spec leaves out, with the schema GoTrue's handler answers with. */
const missingFromSpec: Record<string, unknown> = {
  // GoTrue's adminUserCreate answers the created user, like PUT /admin/users/{userId}.
  'POST /admin/users': { $ref: '#/components/schemas/UserSchema' },
};

function operationFor(method: string, pathname: string) {
  for (const [template, operations] of Object.entries(paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(pathname)) return operations[method.toLowerCase()];
  }
  return undefined;
}

/** The JSON schema the OpenAPI gives for `status` of `method path`, with $refs resolved. */
export function responseSchemaFor(method: string, pathname: string, status: number): unknown {
  const missing = missingFromSpec[`${method} ${pathname}`];
  if (missing && status === 200) return missing;
  const operation = operationFor(method, pathname);
  if (!operation) throw new Error(`gotrue-contract.yaml has no ${method} ${pathname}`);
  let response = operation.responses[String(status)] as Json | undefined;
  if (!response) throw new Error(`gotrue-contract.yaml has no ${status} answer for ${method} ${pathname}`);
  if (typeof response.$ref === 'string') response = components.responses[response.$ref.split('/').pop()!] as Json;
  const content = response.content as Record<string, { schema: unknown }> | undefined;
  return content?.['application/json']?.schema;
}

/** Errors (empty when valid) of a raw auth answer against the OpenAPI. */
export function validateAnswer(method: string, pathname: string, status: number, body: unknown): string[] {
  let validate: ValidateFunction;
  if (status >= 400) validate = errorSchema(true);
  else if (status === 204 || status === 303) return body === null ? [] : [`${status} answer has a body`];
  else {
    const schema = responseSchemaFor(method, pathname, status);
    if (!schema) return [`no schema for ${method} ${pathname} ${status}`];
    validate = compile(`${method} ${pathname.replace(/[0-9a-f-]{36}/, '{id}')} ${status}`, rewriteRefs(schema));
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) => `${method} ${pathname} ${status}: ${error.instancePath || '/'} ${error.message}`,
  );
}

export function expectValid(validate: ValidateFunction, body: unknown): void {
  const ok = validate(body);
  expect(ok ? [] : validate.errors, JSON.stringify(body)).toEqual([]);
}

// ---------------------------------------------------------------- recording client
export interface RecordedCall {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/** A supabase-js client (anon or service key) whose raw /auth/v1 answers are kept in `calls`. */
export function recordingClient(key: 'anon' | 'service' = 'anon'): { client: SupabaseClient; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname.startsWith('/auth/v1/')) {
      const text = await response.clone().text();
      calls.push({
        method: (init?.method ?? 'GET').toUpperCase(),
        path: url.pathname.slice('/auth/v1'.length),
        status: response.status,
        headers: response.headers,
        body: text ? JSON.parse(text) : null,
      });
    }
    return response;
  };
  const client = createClient(config.urls.api, key === 'anon' ? config.anonKey : config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: recordingFetch },
    // Node 20 has no global WebSocket; realtime is never used here, but createClient wants one.
    realtime: {
      transport: WebSocket as unknown as NonNullable<
        NonNullable<Parameters<typeof createClient>[2]>['realtime']
      >['transport'],
    },
  });
  return { client, calls };
}

/** Every recorded answer carries the version header and matches the OpenAPI. */
export function expectCallsValid(calls: RecordedCall[]): void {
  expect(calls.length).toBeGreaterThan(0);
  const problems: string[] = [];
  for (const call of calls) {
    if (call.headers.get(versionHeader) !== '2024-01-01')
      problems.push(`${call.method} ${call.path}: no ${versionHeader} header`);
    problems.push(...validateAnswer(call.method, call.path, call.status, call.body));
  }
  expect(problems).toEqual([]);
}

// ---------------------------------------------------------------- raw calls
export interface RawAnswer {
  status: number;
  headers: Headers;
  body: Json | null;
  text: string;
}

export async function authFetch(
  method: string,
  path: string,
  options: {
    body?: unknown;
    bearer?: string;
    apikey?: string;
    version?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { apikey: options.apikey ?? config.anonKey, ...options.headers };
  if (options.version !== null) headers[versionHeader] = options.version ?? '2024-01-01';
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const res = await fetch(`${config.urls.api}/auth/v1${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: Json | null;
  try {
    parsed = text ? (JSON.parse(text) as Json) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Asserts a GoTrue error answer: status, code, version header, and a valid error body. */
export function expectAuthError(answer: RawAnswer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.body?.code }, answer.text).toEqual({ status, code });
  expect(answer.headers.get(versionHeader)).toBe('2024-01-01');
  expect(typeof answer.body?.message).toBe('string');
  expectValid(errorSchema(true), answer.body);
}

// ---------------------------------------------------------------- mailbox
export interface Mail {
  subject: string;
  html: string;
  text: string;
  to: Array<{ address: string }>;
  from: Array<{ address: string; name: string }>;
}

/** Polls MailDev's REST API for the newest e-mail to `to` (optionally with a subject). */
export async function waitForMail(to: string, subject?: string, timeoutMs = 10_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // MailDev 3 serves its REST API under /api; older MailDev at the root.
    let res = await fetch(`${config.urls.mailbox}/api/email`);
    if (res.status === 404) res = await fetch(`${config.urls.mailbox}/email`);
    if (res.ok) {
      const mails = (await res.json()) as Mail[];
      const match = mails
        .filter((mail) => mail.to.some((recipient) => recipient.address.toLowerCase() === to.toLowerCase()))
        .filter((mail) => !subject || mail.subject === subject)
        .at(-1);
      if (match) return match;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`no e-mail to ${to} within ${timeoutMs} ms`);
}

export const password = 'correct-horse-battery';

export function decodeJwt(token: string): Json {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Json;
}

// ---------------------------------------------------------------- a second Auth instance
/**
 * Serves another Auth instance with adjusted settings directly (no gateway), sharing the test
 * stack's database and mailbox, for settings the stack itself does not use. Call in a describe.
 */
export function useAuthInstance(adjust: (settings: AuthSettings) => AuthSettings): { base(): string } {
  let service: LocalService;
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    service = await createAuthService(config, { settings: adjust, log: () => {} });
    server = http.createServer((req, res) => void service.handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await service.close();
  });
  return { base: () => base };
}
