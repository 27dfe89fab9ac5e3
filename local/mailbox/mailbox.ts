// Mailbox: MailDev's SMTP sink and web inbox. Local auth e-mails (password recovery, magic
// links) land here. MailDev 3 serves its REST API under /api; a small front keeps maildev's
// classic paths (`GET /email`, `/email/:id`, ...) working as well, as the Supabase CLI's
// mailbox tools and our tests expect.
import http from 'node:http';
import { MailDev } from 'maildev';
import path from 'node:path';
import type { StackConfig } from '../config.ts';
import { proxyTo } from '../lib/proxy.ts';

interface RunningMailbox {
  stop(): Promise<void>;
}

export async function startMailbox(config: StackConfig): Promise<RunningMailbox> {
  const internal = { host: config.host, port: config.ports.mailboxWeb + 200 };
  const maildev = new MailDev({
    smtp: config.ports.smtp,
    ip: config.host,
    web: internal.port,
    webIp: config.host,
    mailDirectory: path.join(config.dataDir, 'mail'),
    silent: true,
  });
  const front = http.createServer((req, res) => {
    const url = req.url ?? '/';
    proxyTo(internal, /^\/email(\/|\?|$)/.test(url) ? `/api${url}` : url, req, res);
  });
  try {
    // MailDev announces its internal address on the console; the stack prints the real one.
    const info = console.info;
    console.info = () => {};
    try {
      await maildev.start();
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
