// @vitest-environment jsdom
// The onboarding draft keeps only changed text fields and the posting switch, and reads back only
// known fields of the right type (never files or anything else a stored value might hold).
import { afterEach, describe, expect, it } from 'vitest';
import { draftOf, readDraft } from './configuration-draft';
import type { ConfigurationValues } from './configuration-values';

afterEach(() => localStorage.clear());

describe('the onboarding draft', () => {
  it('holds the fields that differ from the saved profile, and nothing when none does', () => {
    const saved = { firstName: 'Ada', podcastTitle: 'Old', postAutomatically: false } as Partial<ConfigurationValues>;
    const file = new File(['x'], 'logo.png');
    expect(draftOf({ ...saved, files: { logo: file } }, saved)).toBeNull();
    expect(draftOf({ ...saved, podcastTitle: 'New', postAutomatically: true, emailAddress: 'a@b.c', files: { logo: file } }, saved)).toEqual({
      podcastTitle: 'New',
      postAutomatically: true,
    });
  });

  it('reads back only known fields of the right type', () => {
    localStorage.setItem('k', JSON.stringify({ podcastTitle: 'New', firstName: 3, files: { logo: {} }, password: 'x', postAutomatically: 'yes' }));
    expect(readDraft('k')).toEqual({ podcastTitle: 'New' });
    localStorage.setItem('k', '{not json');
    expect(readDraft('k')).toBeNull();
    expect(readDraft('missing')).toBeNull();
  });
});
