// Local sandboxes for the external services Castloop talks to, on one port
// (config.ports.sandbox, 54330 for `npm start`), behind one router. Each sandbox is a module
// (see types.ts) that adds its own routes; `GET /` lists what every module has seen (events,
// deliveries). Add a sandbox: write local/sandbox/<name>/index.ts exporting a SandboxModule
// factory and add it to `createModules` below.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { StackConfig } from '../config.ts';
import { sendJson, sendJsonError } from '../lib/http.ts';
import { createRouter, type Params, type Router } from '../lib/router.ts';
import { escapeHtml, htmlPage, readBody, sendHtml } from './http.ts';
import { createAutomationSandbox } from './automation/index.ts';
import { createStripeSandbox } from './stripe/index.ts';
import { createGoogleSandbox } from './drive/index.ts';
import { createOAuthSandbox } from './oauth/index.ts';
import { createOpenAISandbox } from './openai/index.ts';
import { createSocialSandbox } from './social/index.ts';
import type { SandboxHandler, SandboxModule, SandboxRoutes } from './types.ts';

export type { SandboxModule, SandboxRequest } from './types.ts';

export interface RunningSandbox {
  url: string;
  stop(): Promise<void>;
}

/** Where sandbox modules keep their JSON state. */
function sandboxDataDir(config: StackConfig): string {
  return path.join(config.dataDir, 'sandbox');
}

function createModules(config: StackConfig): SandboxModule[] {
  const oauth = createOAuthSandbox(config, { dataDir: sandboxDataDir(config) });
  const identify = (token: string) => oauth.identify(token);
  return [
    createStripeSandbox(config, { dataDir: sandboxDataDir(config) }),
    oauth,
    createAutomationSandbox(config, { dataDir: sandboxDataDir(config) }),
    createGoogleSandbox({ dataDir: sandboxDataDir(config), baseUrl: config.urls.sandbox, identify }),
    createSocialSandbox({ dataDir: sandboxDataDir(config), baseUrl: config.urls.sandbox, identify }),
    createOpenAISandbox(),
  ];
}

function homePage(config: StackConfig, modules: SandboxModule[]): string {
  const sections = modules.map((m) => m.homeSection?.() ?? `<h2>${escapeHtml(m.name)}</h2>`).join('\n');
  return htmlPage(
    'Castloop local sandboxes',
    `<h1>Castloop local sandboxes</h1>
<p class="muted">Stand-ins for external services, for local development and tests only. Listening on <code>${escapeHtml(config.urls.sandbox)}</code>.</p>
${sections}`,
  );
}

/** Sandbox routes over the shared router: bodies are read for the handler unless it streams them. */
function sandboxRoutes(router: Router): SandboxRoutes {
  const adapt =
    (handler: SandboxHandler, streamed: boolean) =>
    async (req: IncomingMessage, res: ServerResponse, params: Params, url: URL) => {
      const method = req.method ?? 'GET';
      const body = streamed || method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
      await handler({ req, res, method, url, params, body });
    };
  const routes: SandboxRoutes = {
    on: (method, path, handler) => (router.on(method, path, adapt(handler, false)), routes),
    all: (path, handler) => (router.all(path, adapt(handler, false)), routes),
    streamed: (path, handler, methods) =>
      (methods ? router.on(methods, path, adapt(handler, true)) : router.all(path, adapt(handler, true)), routes),
  };
  return routes;
}

export async function startSandbox(config: StackConfig): Promise<RunningSandbox> {
  const modules = createModules(config);
  const router = createRouter({
    headers: { 'cache-control': 'no-store' },
    notFound: (req, res, { url }) => sendJson(res, 404, { message: `No sandbox handles ${req.method} ${url.pathname}` }),
    onError: (_req, res, error) => sendJsonError(res, 500, { message: (error as Error).message }),
  });
  const routes = sandboxRoutes(router);
  for (const module of modules) module.routes(routes);
  routes
    .on('GET', '/', ({ res }) => sendHtml(res, 200, homePage(config, modules)))
    .on('GET', '/_sandbox/health', ({ res }) => sendJson(res, 200, { ok: true, modules: modules.map((m) => m.name) }));
  const server: Server = createServer((req, res) => void router.handle(req, res));

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) =>
      reject(
        new Error(`Sandbox could not listen on ${config.host}:${config.ports.sandbox}: ${error.message}`, {
          cause: error,
        }),
      );
    server.once('error', onError);
    server.listen(config.ports.sandbox, config.host, () => {
      server.off('error', onError);
      resolve();
    });
  });

  return {
    url: config.urls.sandbox,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      for (const module of modules) await module.stop?.();
    },
  };
}
