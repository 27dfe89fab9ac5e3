// The transactional e-mail settings of the local stack (issue 43, item 1), from config.env with
// local defaults: the Edge Functions send through this stack's mailbox (MailDev's SMTP, no TLS)
// unless .env names another SMTP server; the test profile always uses its own mailbox.
// `.env.example` documents them.
import type { StackConfig } from '../config.ts';

export function mailFunctionEnv(config: StackConfig): Record<string, string> {
  const env = config.env;
  const ownMailbox = config.profile === 'test' || !env.EMAIL_SMTP_HOST;
  return {
    EMAIL_PROVIDER: ownMailbox ? 'smtp' : (env.EMAIL_PROVIDER ?? 'smtp'),
    EMAIL_FROM: env.EMAIL_FROM || 'Castloop <notifications@castloop.local>',
    EMAIL_UNSUBSCRIBE_SECRET: env.EMAIL_UNSUBSCRIBE_SECRET || 'castloop-local-unsubscribe-secret',
    ...(ownMailbox
      ? { EMAIL_SMTP_HOST: config.host, EMAIL_SMTP_PORT: String(config.ports.smtp), EMAIL_SMTP_SECURITY: 'none' }
      : {}),
  };
}
