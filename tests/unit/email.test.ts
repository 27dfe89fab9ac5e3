// The e-mails' templates, their signed unsubscribe links, the outbox's backoff and the e-mail
// settings (issue 43, item 1), without a stack. The stack's own tests read the mailbox
// (tests/e2e/emails.test.ts) and the outbox in SQL (tests/db/email-outbox.test.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { EMAIL_ESSENTIAL_KINDS, EMAIL_KINDS, readUnsubscribeClaim } from '../../supabase/functions/_shared/domain/email.ts';
import {
  emailRetryDelaySeconds,
  MAX_EMAIL_ATTEMPTS,
  shouldGiveUpEmail,
  signUnsubscribeToken,
  verifyUnsubscribeToken,
} from '../../supabase/functions/_shared/domain-server/email-outbox.ts';
import { renderEmail } from '../../supabase/functions/_shared/domain-server/email-templates.ts';
import { readFunctionSettings } from '../../supabase/functions/_shared/settings.ts';

const siteUrl = 'https://app.castloop.com';
const links = { siteUrl, unsubscribeUrl: `${siteUrl}/unsubscribe?token=t` };
const userId = '0b7c6a5e-2f1d-4c8e-9a3b-1d2e3f4a5b6c';

describe('the e-mail templates', () => {
  it.each(EMAIL_KINDS.map((kind) => [kind]))('%s: the product name, a greeting, and a link to act on', (kind) => {
    const email = renderEmail(kind, { firstName: 'Ada', episodeId: 'e1', title: 'Garden Talk', provider: 'google', limit: 1, tier: 'starter' }, links);
    for (const part of [email.html, email.text]) {
      expect(part).toContain('Castloop');
      expect(part).toContain('Hi Ada,');
      expect(part).toContain(siteUrl);
    }
    const essential = (EMAIL_ESSENTIAL_KINDS as readonly string[]).includes(kind);
    expect(email.text.includes('Unsubscribe from these e-mails: https://app.castloop.com/unsubscribe?token=t'), kind).toBe(!essential);
    expect(email.html.includes('Unsubscribe from these e-mails'), kind).toBe(!essential);
  });

  it("escapes what subscribers wrote in the HTML, and keeps the text part's words as written", () => {
    const email = renderEmail('failed', { title: '<img src=x onerror=alert(1)> & "Co"', reason: 'a <b>bad</b> file', permanent: false, episodeId: 'e1' }, links);
    expect(email.html).not.toContain('<img src=x');
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
    expect(email.text).toContain('The reason: a <b>bad</b> file');
    expect(email.subject).toBe('"<img src=x onerror=alert(1)> & "Co"" could not be processed');
  });

  it('says what to do about a failure: retry, or submit again when a retry cannot help', () => {
    const retryable = renderEmail('failed', { title: 'Show', reason: 'Drive answered 503', permanent: false, episodeId: 'e1' }, links);
    expect(retryable.text).toContain('open the episode page and press Retry');
    const permanent = renderEmail('failed', { title: 'Show', reason: 'show.mp4 has no video stream', permanent: true, episodeId: 'e1' }, links);
    expect(permanent.text).toContain('Submit it again with a corrected file or start and end times.');
    expect(permanent.text).not.toContain('Retry');
    expect(permanent.text).toContain(`Open the episode page: ${siteUrl}/episodes/e1`);
  });

  it('links the episode page and the Drive folder of a delivery, and says why it waits for review', () => {
    const data = { title: 'Show', episodeId: 'e1', driveFolderUrl: 'https://drive.google.com/drive/folders/f1' };
    const delivered = renderEmail('delivered', data, links);
    expect(delivered.text).toContain(`Open the episode page: ${siteUrl}/episodes/e1`);
    expect(delivered.text).toContain('Open the Google Drive folder: https://drive.google.com/drive/folders/f1');
    expect(renderEmail('ready_for_review', { ...data, hold: 'low_confidence' }, links).text).toContain('check the transcript, then approve');
    expect(renderEmail('ready_for_review', { ...data, dueAt: '2026-11-29T10:00:00Z' }, links).text).toContain(
      'Nothing is posted before 29 November 2026 at 10:00 UTC, when posting starts by itself, unless you approve it sooner.',
    );
    // A folder address that is not a web address is left out.
    expect(renderEmail('delivered', { ...data, driveFolderUrl: 'javascript:alert(1)' }, links).html).not.toContain('javascript:');
  });

  it('offers the largest plan one more episode instead of an upgrade', () => {
    expect(renderEmail('allowance_reached', { limit: 4, tier: 'scale' }, links).text).toContain('buy one more episode for this month');
    expect(renderEmail('allowance_reached', { limit: 1, tier: 'starter' }, links).text).toContain('Upgrade your plan');
  });
});

describe('the unsubscribe token', () => {
  it("carries the account and the kind, signed: another secret's, a changed claim or a cut token is refused", async () => {
    const token = await signUnsubscribeToken('secret-one', userId, 'delivered');
    expect(await verifyUnsubscribeToken('secret-one', token)).toEqual({ userId, kind: 'delivered' });
    expect(readUnsubscribeClaim(token)).toEqual({ userId, kind: 'delivered' });
    expect(await verifyUnsubscribeToken('secret-two', token)).toBeNull();
    const [, signature] = token.split('.');
    const other = (await signUnsubscribeToken('secret-one', userId, 'allowance_reached')).split('.')[0];
    expect(await verifyUnsubscribeToken('secret-one', `${other}.${signature}`)).toBeNull();
    expect(await verifyUnsubscribeToken('secret-one', token.split('.')[0])).toBeNull();
    expect(await verifyUnsubscribeToken('secret-one', `${token}.x`)).toBeNull();
    expect(readUnsubscribeClaim('not a token')).toBeNull();
  });
});

describe('the outbox backoff', () => {
  it('waits 1, 2, 4 ... minutes, at most an hour, and gives up at the last attempt', () => {
    expect([1, 2, 3, 7, 8].map(emailRetryDelaySeconds)).toEqual([60, 120, 240, 3600, 3600]);
    expect(shouldGiveUpEmail(MAX_EMAIL_ATTEMPTS - 1)).toBe(false);
    expect(shouldGiveUpEmail(MAX_EMAIL_ATTEMPTS)).toBe(true);
  });
});

describe('the e-mail settings', () => {
  const hosted = {
    SUPABASE_URL: 'https://abcdefghijklmnop.supabase.co',
    SUPABASE_ANON_KEY: 'anon',
    SUPABASE_SERVICE_ROLE_KEY: 'service-role',
    SUPABASE_DB_URL: 'postgresql://postgres:pw@db.abcdefghijklmnop.supabase.co:5432/postgres',
    SITE_URL: 'https://app.example.com',
    EMAIL_FROM: 'Castloop <notifications@castloop.com>',
    EMAIL_UNSUBSCRIBE_SECRET: 'a-long-random-secret',
  };
  const problem = (env: Record<string, string>) => {
    try {
      readFunctionSettings(env, 'send-emails');
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('takes SMTP over implicit TLS, or the HTTP API, and names what is missing', () => {
    expect(readFunctionSettings({ ...hosted, EMAIL_SMTP_HOST: 'smtp.example.com' }, 'send-emails').email.smtp).toEqual({
      host: 'smtp.example.com',
      port: 465,
      security: 'tls',
      user: '',
      password: '',
    });
    expect(readFunctionSettings({ ...hosted, EMAIL_PROVIDER: 'resend', EMAIL_API_KEY: 're_123' }, 'send-emails').email.api).toEqual({
      url: 'https://api.resend.com/emails',
      key: 're_123',
    });
    expect(problem(hosted)).toMatch(/EMAIL_SMTP_HOST is not set/);
    expect(problem({ ...hosted, EMAIL_PROVIDER: 'resend' })).toMatch(/EMAIL_API_KEY is not set/);
    expect(problem({ ...hosted, EMAIL_PROVIDER: 'pigeon' })).toMatch(/EMAIL_PROVIDER must be one of smtp, resend/);
  });

  it('refuses the ports hosted functions cannot reach, plain SMTP off this machine, and the local secret', () => {
    expect(problem({ ...hosted, EMAIL_SMTP_HOST: 'smtp.example.com', EMAIL_SMTP_PORT: '587', EMAIL_SMTP_SECURITY: 'starttls' })).toMatch(
      /EMAIL_SMTP_PORT 587 cannot be reached from hosted Edge Functions/,
    );
    expect(problem({ ...hosted, EMAIL_SMTP_HOST: 'smtp.example.com', EMAIL_SMTP_SECURITY: 'none' })).toMatch(/none is for this machine only/);
    expect(problem({ ...hosted, EMAIL_SMTP_HOST: 'smtp.example.com', EMAIL_UNSUBSCRIBE_SECRET: 'castloop-local-unsubscribe-secret' })).toMatch(
      /EMAIL_UNSUBSCRIBE_SECRET still hold the local stack's public default/,
    );
    expect(problem({ ...hosted, EMAIL_SMTP_HOST: 'smtp.example.com', EMAIL_FROM: 'Castloop' })).toMatch(/EMAIL_FROM must be an address/);
  });
});

describe('the HTTP API transport', () => {
  it("posts Resend's shape with the key, the headers and the idempotency key, and fails on a refusal", async () => {
    const { emailSender } = await import('../../supabase/functions/send-emails/transport.ts');
    const received: Array<{ headers: Record<string, unknown>; body: Record<string, unknown> }> = [];
    let answer = 200;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(body) });
        res.writeHead(answer, { 'content-type': 'application/json' }).end(answer === 200 ? '{"id":"1"}' : '{"message":"domain not verified"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/emails`;
    const send = emailSender({ provider: 'resend', from: 'Castloop <n@castloop.com>', unsubscribeSecret: 's', smtp: null, api: { url, key: 're_1' } })!;
    const email = { to: 'ada@example.com', subject: 'S', html: '<p>h</p>', text: 't', headers: { 'Idempotency-Key': 'k1', 'List-Unsubscribe': '<https://x>' } };
    await send(email);
    expect(received[0].headers).toMatchObject({ authorization: 'Bearer re_1', 'idempotency-key': 'k1' });
    expect(received[0].body).toEqual({ from: 'Castloop <n@castloop.com>', to: ['ada@example.com'], subject: 'S', html: '<p>h</p>', text: 't', headers: { 'List-Unsubscribe': '<https://x>' } });
    answer = 422;
    await expect(send(email)).rejects.toThrow('HTTP 422: {"message":"domain not verified"}');
  });
});
