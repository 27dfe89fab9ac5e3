// Local sandboxes for the external services Castloop talks to, on one port
// (config.ports.sandbox, 54330 for `npm start`). Each sandbox is a module (see types.ts) that
// claims its own paths; `GET /` lists what every module has seen (events, deliveries).
// Add a sandbox: write local/sandbox/<name>/index.ts exporting a SandboxModule factory and
// add it to `createModules` below.
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { StackConfig } from '../config.ts';
import { escapeHtml, htmlPage, readBody, sendHtml, sendJson } from './http.ts';
import { createAutomationSandbox } from './automation/index.ts';
import { createStripeSandbox } from './stripe/index.ts';
import { createGoogleSandbox, isGoogleUploadPath } from './drive/index.ts';
import { createOAuthSandbox } from './oauth/index.ts';
import { createSocialSandbox, isSocialUploadPath } from './social/index.ts';
import type { SandboxModule } from './types.ts';

export type { SandboxModule, SandboxRequest } from './types.ts';

export interface RunningSandbox {
  url: string;
  stop(): Promise<void>;
}

/** Where sandbox modules keep their JSON state. */
export function sandboxDataDir(config: StackConfig): string {
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

export async function startSandbox(config: StackConfig): Promise<RunningSandbox> {
  const modules = createModules(config);
  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        const method = (req.method ?? 'GET').toUpperCase();
        const url = new URL(req.url ?? '/', config.urls.sandbox);
        // Uploads (video files) are streamed by their module, not read into memory here.
        const streamed = method === 'GET' || method === 'HEAD' || isGoogleUploadPath(url.pathname) || isSocialUploadPath(url.pathname);
        const body = streamed ? Buffer.alloc(0) : await readBody(req);
        for (const module of modules) {
          if (await module.handle({ req, res, method, url, body })) return;
        }
        if (method === 'GET' && (url.pathname === '/' || url.pathname === '')) {
          sendHtml(res, 200, homePage(config, modules));
          return;
        }
        if (method === 'GET' && url.pathname === '/_sandbox/health') {
          sendJson(res, 200, { ok: true, modules: modules.map((m) => m.name) });
          return;
        }
        sendJson(res, 404, { message: `No sandbox handles ${method} ${url.pathname}` });
      } catch (error) {
        if (!res.headersSent) sendJson(res, 500, { message: (error as Error).message });
        else res.destroy();
      }
    })();
  });

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
