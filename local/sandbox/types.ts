// The contract between the sandbox server (index.ts) and each sandbox module (stripe/, oauth/,
// drive/, automation/): a module adds its routes to the sandbox's one router.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Method, Params } from '../lib/router.ts';

export interface SandboxRequest {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: URL;
  params: Params;
  /** The raw request body; empty for GET/HEAD and for streamed routes. */
  body: Buffer;
}

export type SandboxHandler = (request: SandboxRequest) => unknown;

export interface SandboxRoutes {
  on(method: Method | readonly Method[], path: string, handler: SandboxHandler): SandboxRoutes;
  all(path: string, handler: SandboxHandler): SandboxRoutes;
  /** Every method unless `methods` are given; the handler reads the body itself, as a stream (uploads). */
  streamed(path: string, handler: SandboxHandler, methods?: Method | readonly Method[]): SandboxRoutes;
}

export interface SandboxModule {
  /** Short name, shown on the sandbox home page. */
  name: string;
  routes(routes: SandboxRoutes): void;
  /** An HTML section (starting with an <h2>) for the sandbox home page `GET /`. */
  homeSection?(): string;
  /** Flushes state and stops timers. */
  stop?(): Promise<void>;
}
