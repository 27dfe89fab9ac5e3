// The sign-up form's password rule and Auth's own (config.toml) are one policy: the form must
// never accept a password Auth refuses, nor refuse one Auth accepts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH } from '../../supabase/functions/_shared/domain/auth-schemas.ts';

const config = parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'supabase', 'config.toml'), 'utf8')) as {
  auth: { minimum_password_length: number };
};

describe('password policy', () => {
  it('the form and Auth agree on the minimum length', () => {
    expect(config.auth.minimum_password_length).toBe(PASSWORD_MIN_LENGTH);
  });
});
