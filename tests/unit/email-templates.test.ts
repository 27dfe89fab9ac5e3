// The auth e-mails: branded, one link each, and the lifetime they state is the one Auth applies.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const config = parse(readFileSync(path.join(root, 'supabase', 'config.toml'), 'utf8')) as {
  auth: { email: { otp_expiry: number; template: Record<string, { subject: string; content_path: string }> } };
};

describe('auth e-mail templates', () => {
  const templates = Object.entries(config.auth.email.template);

  it('has a template for recovery, magic link and confirmation', () => {
    expect(templates.map(([name]) => name).sort()).toEqual(['confirmation', 'magic_link', 'recovery']);
  });

  it.each(templates)('%s names Castloop, carries one link and states the configured lifetime', (_name, template) => {
    const html = readFileSync(path.join(root, template.content_path), 'utf8');
    expect(template.subject).toMatch(/Castloop/);
    expect(html).toMatch(/>Castloop</);
    expect(html.match(/href="/g)).toHaveLength(1);
    const hours = config.auth.email.otp_expiry / 3600;
    expect(html).toContain(`This link works for ${hours} hour${hours === 1 ? '' : 's'} and only once.`);
  });
});
