// The shape every in-process part of the local stack (auth, storage) exposes to the gateway.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Handles a request whose URL has had the gateway prefix (`/auth/v1`, `/storage/v1`) removed. */
type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface LocalService {
  handler: NodeHandler;
  close(): Promise<void>;
}
