import { describe, expect, it } from 'vitest';
import { databaseError, isUnstorableText } from './database-errors.ts';

const answer = (error: { code?: string; message: string; details?: string | null; detail?: string }) => {
  const mapped = databaseError(error, 'Could not save');
  return { status: mapped.status, message: mapped.message };
};

describe('databaseError: the one mapping from a database refusal to HTTP', () => {
  it('answers text Postgres cannot store with 400 and plain words', () => {
    for (const code of ['22P05', '22021', 'PGRST102'])
      expect(answer({ code, message: 'unsupported Unicode escape sequence' })).toEqual({
        status: 400,
        message: 'Could not save: Text may not contain NUL characters or invalid Unicode',
      });
  });

  it("gives our SQL functions' refusals their status and the detail's words", () => {
    expect(answer({ code: '22023', message: 'invalid_cursor', details: 'The page cursor is incomplete.' })).toEqual({
      status: 400,
      message: 'The page cursor is incomplete.',
    });
    expect(answer({ code: 'PT404', message: 'subscriber_not_found', details: 'No account uses x.' })).toEqual({
      status: 404,
      message: 'No account uses x.',
    });
    expect(answer({ code: 'PT402', message: 'subscription_inactive' })).toMatchObject({ status: 403 });
    expect(answer({ code: '42501', message: 'not_admin' })).toMatchObject({ status: 403 });
    expect(answer({ code: '42501', message: 'not_authenticated' })).toEqual({ status: 401, message: 'Unauthorized' });
  });

  it("turns complete_onboarding's list of missing fields into the spec's messages", () => {
    expect(answer({ code: '22023', message: 'onboarding_incomplete', details: 'brandFont, logo, somethingNew' })).toEqual({
      status: 400,
      message: 'Brand font is required, Brand logo is required, somethingNew',
    });
    expect(answer({ code: '22023', message: 'onboarding_incomplete', details: '' })).toEqual({ status: 400, message: 'onboarding_incomplete' });
  });

  it("reads postgres.js's `detail` as PostgREST's `details`", () => {
    expect(answer({ code: 'P0001', message: 'invalid_cursor', detail: 'The page cursor is incomplete.' })).toEqual({
      status: 400,
      message: 'The page cursor is incomplete.',
    });
  });

  it('answers not found for PT404 alone, the one code our SQL raises for it', () => {
    expect(answer({ code: 'PT404', message: 'file_not_found', details: 'File a.mp4 was not found in storage.' })).toEqual({
      status: 404,
      message: 'File a.mp4 was not found in storage.',
    });
    // Postgres's own no_data_found is no refusal of ours: a `select into strict` that found nothing.
    expect(answer({ code: 'P0002', message: 'query returned no rows' })).toEqual({ status: 500, message: 'Could not save: query returned no rows' });
  });

  it('answers broken constraints and malformed values with 4xx, a duplicate with 409', () => {
    expect(answer({ code: '23505', message: 'duplicate key value' })).toEqual({ status: 409, message: 'Could not save: duplicate key value' });
    expect(answer({ code: '23514', message: 'violates check constraint' })).toMatchObject({ status: 400 });
    expect(answer({ code: '22P02', message: 'invalid input syntax for type uuid' })).toMatchObject({ status: 400 });
  });

  it("answers the server's own failures with 500", () => {
    for (const code of [undefined, '42P01', '57014', '08006', 'PGRST301', 'CONNECTION_CLOSED'])
      expect(answer({ code, message: 'boom' })).toEqual({ status: 500, message: 'Could not save: boom' });
  });
});

describe('isUnstorableText', () => {
  it.each([
    ['a\u0000b', true],
    ['lone \uD800 high', true],
    ['lone \uDC00 low', true],
    ['pair \uD83C\uDFA7 ok', false],
    ['plain/uploads/a.mp4', false],
  ])('%j is unstorable: %s', (text, unstorable) => {
    expect(isUnstorableText(text)).toBe(unstorable);
  });
});
