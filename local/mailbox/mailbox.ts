// Mailbox: MailDev's SMTP sink with its web inbox and REST API (`GET /email`).
// Local auth e-mails (password recovery, magic links) land here.
import { MailDev } from 'maildev';
import path from 'node:path';
import type { StackConfig } from '../config.ts';

export interface RunningMailbox {
  stop(): Promise<void>;
}

export async function startMailbox(config: StackConfig): Promise<RunningMailbox> {
  const maildev = new MailDev({
    smtp: config.ports.smtp,
    ip: config.host,
    web: config.ports.mailboxWeb,
    webIp: config.host,
    mailDirectory: path.join(config.dataDir, 'mail'),
    silent: true,
  });
  try {
    await maildev.start();
  } catch (error) {
    throw new Error(
      `Mailbox could not start on ${config.host}:${config.ports.mailboxWeb} (SMTP ${config.ports.smtp}): ${(error as Error).message}`,
      { cause: error },
    );
  }
  return { stop: () => maildev.stop() };
}
