// Mailbox: MailDev's SMTP sink and web inbox. Local auth e-mails (password recovery, magic
// links) land here. MailDev 3 serves its REST API under /api; a small front keeps maildev's
// classic paths (`GET /email`, `/email/:id`, ...) working as well, as the Supabase CLI's
// mailbox tools and our tests expect. The front answers browsers only from the local origins: mail
// holds reset links, and MailDev itself reflects any Origin with credentials.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { MailDev } from 'maildev';
import path from 'node:path';
import type { StackConfig } from '../config.ts';
import { sendJson } from '../lib/http.ts';
import { allowedOrigins } from '../lib/origins.ts';
import { proxyTo } from '../lib/proxy.ts';

interface RunningMailbox {
  stop(): Promise<void>;
}

/** The app's origins and the mailbox's own, each under both loopback names. */
function mailboxOrigins(config: StackConfig): Set<string> {
  const own = new URL(config.urls.mailbox);
  return new Set([...allowedOrigins(config), own.origin, `${own.protocol}//localhost:${own.port}`]);
}

/**
 * CORS for the local origins only: a request a browser sends from any other page (its Origin
 * says so) is refused before it reaches MailDev. False when the request has been answered.
 */
function admitOrigin(origins: Set<string>, ownHosts: Set<string>, req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  // A page on another site that has its name resolve to 127.0.0.1 (DNS rebinding) is same-origin
  // to the browser, sends no Origin on a GET, but names its own host.
  if (!ownHosts.has(req.headers.host ?? '')) {
    sendJson(res, 403, { message: 'The local mailbox answers only the local app and itself' });
    return false;
  }
  if (origin === undefined) return true; // Not a cross-origin browser request: curl, tests, navigation.
  if (!origins.has(origin)) {
    sendJson(res, 403, { message: 'The local mailbox answers only the local app and itself' }, { vary: 'Origin' });
    return false;
  }
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-allow-credentials', 'true');
  res.setHeader('vary', 'Origin');
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    res.writeHead(204, {
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
      'access-control-max-age': '600',
    });
    res.end();
    return false;
  }
  return true;
}

export async function startMailbox(config: StackConfig): Promise<RunningMailbox> {
  // MailDev's own web server is reached only through the front: on a port the system picks, so it
  // can never collide with another socket (a fixed one once met an outgoing connection's port).
  const internal = { host: config.host, port: 0 };
  const maildev = new MailDev({
    smtp: config.ports.smtp,
    ip: config.host,
    web: 0,
    webIp: config.host,
    mailDirectory: path.join(config.dataDir, 'mail'),
    silent: true,
  });
  const origins = mailboxOrigins(config);
  const ownHosts = new Set([`${config.host}:${config.ports.mailboxWeb}`, `localhost:${config.ports.mailboxWeb}`]);
  const front = http.createServer((req, res) => {
    if (!admitOrigin(origins, ownHosts, req, res)) return;
    const url = req.url ?? '/';
    proxyTo(internal, /^\/email(\/|\?|$)/.test(url) ? `/api${url}` : url, req, res);
  });
  try {
    // MailDev announces its internal address on the console; the stack prints the real one.
    const info = console.info;
    console.info = () => {};
    try {
      await maildev.start();
      internal.port = maildev.getServers()?.api?.getPort() ?? 0;
      if (!internal.port) throw new Error('MailDev did not say which port its web server took');
    } finally {
      console.info = info;
    }
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(config.ports.mailboxWeb, config.host, () => resolve());
    });
  } catch (error) {
    await maildev.stop().catch(() => {});
    throw new Error(
      `Mailbox could not start on ${config.host}:${config.ports.mailboxWeb} (SMTP ${config.ports.smtp}): ${(error as Error).message}`,
      { cause: error },
    );
  }
  return {
    stop: async () => {
      await new Promise<void>((resolve) => {
        front.close(() => resolve());
        front.closeAllConnections();
      });
      await maildev.stop();
    },
  };
}
