// Auth e-mails: config.toml's templates (Go-template variables such as {{ .ConfirmationURL }})
// rendered and sent by SMTP to the local mailbox.
import { readFile } from 'node:fs/promises';
import nodemailer, { type Transporter } from 'nodemailer';
import { AuthError } from './errors.ts';
import type { AuthSettings, TemplateKind } from './settings.ts';

export interface MailVariables {
  SiteURL: string;
  ConfirmationURL: string;
  Token: string;
  TokenHash: string;
  RedirectTo: string;
  Email: string;
  NewEmail?: string;
  Data: Record<string, unknown>;
}

const defaults: Record<TemplateKind, { subject: string; body: string }> = {
  confirmation: {
    subject: 'Confirm Your Signup',
    body: '<h2>Confirm your signup</h2>\n<p>Follow this link to confirm your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Confirm your mail</a></p>',
  },
  recovery: {
    subject: 'Reset Your Password',
    body: '<h2>Reset Password</h2>\n<p>Follow this link to reset the password for your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Reset Password</a></p>',
  },
  magic_link: {
    subject: 'Your Magic Link',
    body: '<h2>Magic Link</h2>\n<p>Follow this link to login:</p>\n<p><a href="{{ .ConfirmationURL }}">Log In</a></p>',
  },
  email_change: {
    subject: 'Confirm Email Change',
    body: '<h2>Confirm Change of Email</h2>\n<p>Follow this link to confirm the update of your email from {{ .Email }} to {{ .NewEmail }}:</p>\n<p><a href="{{ .ConfirmationURL }}">Change Email</a></p>',
  },
  invite: {
    subject: 'You have been invited',
    body: '<h2>You have been invited</h2>\n<p>Follow this link to accept the invite:</p>\n<p><a href="{{ .ConfirmationURL }}">Accept the invite</a></p>',
  },
  reauthentication: {
    subject: '{{ .Token }} is your verification code',
    body: '<h2>Your verification code</h2>\n<p>Use the code below to verify your identity. It expires shortly.</p>\n<p>{{ .Token }}</p>',
  },
};

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[char] ?? char,
  );
}

function lookup(variables: MailVariables, dotted: string): string | undefined {
  let value: unknown = variables;
  for (const part of dotted.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Replaces `{{ .Name }}` / `{{ .Data.key }}` placeholders; unknown ones render empty, as Go does. */
function renderTemplate(template: string, variables: MailVariables, html: boolean): string {
  return template.replace(
    /\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*-?\}\}/g,
    (_match, name: string) => {
      const value = lookup(variables, name) ?? '';
      return html ? escapeHtml(value) : value;
    },
  );
}

function htmlToText(html: string): string {
  return html
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gis, '$2 ($1)')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|h\d|div|li)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export class Mailer {
  private readonly transport: Transporter;

  constructor(private readonly settings: AuthSettings) {
    this.transport = nodemailer.createTransport({
      host: settings.smtp.host,
      port: settings.smtp.port,
      secure: false,
      ignoreTLS: true,
    });
  }

  async render(kind: TemplateKind, variables: MailVariables): Promise<{ subject: string; html: string }> {
    const configured = this.settings.templates[kind];
    let body = defaults[kind].body;
    if (configured.contentPath) {
      try {
        body = await readFile(configured.contentPath, 'utf8');
      } catch {
        // GoTrue falls back to its default template when the configured one cannot be read.
      }
    }
    const subject = renderTemplate(configured.subject ?? defaults[kind].subject, variables, false);
    return { subject, html: renderTemplate(body, variables, true) };
  }

  async send(kind: TemplateKind, to: string, variables: MailVariables): Promise<void> {
    const { subject, html } = await this.render(kind, variables);
    const { adminEmail, senderName } = this.settings.smtp;
    try {
      await this.transport.sendMail({
        from: senderName ? { name: senderName, address: adminEmail } : adminEmail,
        to,
        subject,
        html,
        text: htmlToText(html),
      });
    } catch (error) {
      const what =
        kind === 'recovery'
          ? 'recovery'
          : kind === 'magic_link'
            ? 'magic link'
            : kind === 'confirmation'
              ? 'confirmation'
              : kind;
      throw new AuthError(500, 'unexpected_failure', `Error sending ${what} email`, {}, (error as Error).message);
    }
  }

  close(): void {
    this.transport.close();
  }
}
