import { describe, expect, it } from 'vitest';
import {
  emptyResubmitForm,
  formatSizeMb,
  formFromLog,
  missingForResubmit,
  resubmitPayloadOf,
} from './admin-resubmit.ts';

const log = {
  id: '3f0c8f0e-64f4-4d7b-9d0f-2f4b8f0b6a11',
  userEmail: 'host@example.com',
  objectStorageFiles: ['u/uploads/a.mp4', 'u/uploads/b.mp4'],
  submissionParameters: {},
};

describe('formFromLog', () => {
  it('uses defaults where the log has no parameters; addLogo and addIntroOutro stay true', () => {
    expect(formFromLog(log)).toEqual({
      ...emptyResubmitForm,
      userEmail: 'host@example.com',
      objectStorageFiles: ['u/uploads/a.mp4', 'u/uploads/b.mp4'],
      originalLogId: log.id,
    });
  });

  it('takes the parameters it has; only an explicit false turns a switch off', () => {
    const form = formFromLog({
      ...log,
      submissionParameters: {
        startTimestamp: '0:01:00',
        endTimestamp: '00:30:00',
        clipStyle: 'PORTRAIT',
        daysBetweenClips: 3,
        addLogo: false,
        addIntroOutro: null,
      },
    });
    expect(form).toMatchObject({
      startTimestamp: '0:01:00',
      endTimestamp: '00:30:00',
      clipStyle: 'PORTRAIT',
      daysBetweenClips: 3,
      addLogo: false,
      addIntroOutro: true,
    });
  });

  it('falls back to DEFAULT for a subscriber-side clip style and to 1 for invalid days', () => {
    expect(formFromLog({ ...log, submissionParameters: { clipStyle: 'CREATIVE', daysBetweenClips: 0 } })).toMatchObject(
      { clipStyle: 'DEFAULT', daysBetweenClips: 1 },
    );
  });
});

describe('missingForResubmit and the payload', () => {
  it('names what keeps the button disabled, in the spec words', () => {
    expect(missingForResubmit(emptyResubmitForm)).toEqual([
      { title: 'No Files Selected', message: 'Please select at least one file to resubmit.' },
      { title: 'Email Required', message: "Please enter the user's email address." },
    ]);
    expect(missingForResubmit({ userEmail: ' a@b.c ', objectStorageFiles: ['x.mp4'] })).toEqual([]);
  });

  it('sends trimmed e-mail, empty times as null, and the original log id', () => {
    expect(resubmitPayloadOf({ ...formFromLog(log), userEmail: ' host@example.com ', startTimestamp: ' ' })).toEqual({
      objectStorageFiles: log.objectStorageFiles,
      userEmail: 'host@example.com',
      episodeData: {
        startTimestamp: null,
        endTimestamp: null,
        clipStyle: 'DEFAULT',
        daysBetweenClips: 1,
        addLogo: true,
        addIntroOutro: true,
      },
      originalLogId: log.id,
    });
  });
});

describe('formatSizeMb', () => {
  it('shows MB with 2 decimals', () => {
    expect(formatSizeMb(2 * 1024 * 1024 + 5243)).toBe('2.01 MB');
    expect(formatSizeMb(0)).toBe('0.00 MB');
    expect(formatSizeMb(null)).toBe('-');
  });
});
