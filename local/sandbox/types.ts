// The contract between the sandbox router (index.ts) and each sandbox module
// (stripe/, and later OAuth providers, WordPress, the automation receiver).
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface SandboxRequest {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: URL;
  /** The raw request body (empty for GET/HEAD). */
  body: Buffer;
}

export interface SandboxModule {
  /** Short name, shown on the sandbox home page. */
  name: string;
  /** Handles the request and returns true, or returns false to let the next module try. */
  handle(request: SandboxRequest): Promise<boolean>;
  /** An HTML section (starting with an <h2>) for the sandbox home page `GET /`. */
  homeSection?(): string;
  /** Flushes state and stops timers. */
  stop?(): Promise<void>;
}
