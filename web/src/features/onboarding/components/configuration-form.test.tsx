// @vitest-environment jsdom
// The configuration form's selects (spec section 2): each holds its whole list after the
// placeholder, shows the saved choice, and takes a new one. Setup mode (/onboarding) has every
// select; update mode (the profile card's Update tab) the brand font only.
import { googleFontFamilies, podcastCategories, podcastLanguages, podcastTimezones } from '@domain/onboarding-lists';
import type { ProfileRecord } from '@domain/profile-record';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { testAccount } from '@/testing/account';
import { ConfigurationForm } from './configuration-form';

vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), database: vi.fn(), currentAccessToken: async () => null }));

afterEach(cleanup);

const noFile = { exists: false, filename: null };
const saved: ProfileRecord = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  emailAddress: 'ada@example.com',
  brandFont: 'Zilla Slab',
  brandColorPrimary: '1A2B3C',
  brandColorSecondary: 'AABBCC',
  brandColorTertiary: null,
  podcastTitle: 'Engines',
  podcastDescription: 'On thinking machines',
  podcastAuthor: 'Ada',
  podcastCopyright: null,
  podcastKeywords: null,
  podcastWebsite: null,
  podcastLanguage: 'fr',
  podcastTimezone: 'UTC+05:30',
  podcastPrimaryCategory: 'Arts > Books',
  podcastSecondaryCategory: 'Arts',
  postAutomatically: false,
  reviewWindow: '24h',
  postingHour: 10,
  lastUpdated: '2026-11-01T10:00:00Z',
  logo: noFile,
  podcastCover: noFile,
  introVideoClip: noFile,
  outroVideoClip: noFile,
  introAudioClip: noFile,
  outroAudioClip: noFile,
};

function renderForm(mode: 'setup' | 'update') {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <ConfigurationForm mode={mode} account={testAccount({ onboardingCompleted: mode === 'update' })} record={saved} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const valuesOf = (element: HTMLSelectElement) => [...element.options].map((option) => option.value);

describe('the configuration form’s selects', () => {
  it('in setup mode each holds its whole list after the placeholder and shows the saved choice', async () => {
    renderForm('setup');
    await screen.findByRole('combobox', { name: 'Brand Font *' });
    expect(valuesOf(select('Brand Font *'))).toEqual(['', ...googleFontFamilies]);
    expect(select('Brand Font *').options[0].text).toBe('Select...');
    expect(select('Brand Font *').value).toBe('Zilla Slab');
    expect(valuesOf(select('Language'))).toEqual(['', ...podcastLanguages.map((language) => language.value)]);
    expect(select('Language').selectedOptions[0].text).toBe(podcastLanguages.find((language) => language.value === 'fr')?.label);
    expect(valuesOf(select('Timezone'))).toEqual(['', ...podcastTimezones]);
    expect(select('Timezone').value).toBe('UTC+05:30');
    // Categories are grouped: the group itself, then its subcategories labelled by their own name.
    const primary = select('Primary Category *');
    expect(valuesOf(primary)).toEqual(['', ...podcastCategories]);
    expect(primary.value).toBe('Arts > Books');
    expect(primary.selectedOptions[0].text).toBe('Books');
    expect((primary.selectedOptions[0].parentElement as HTMLOptGroupElement).label).toBe('Arts');
    expect(select('Secondary Category').value).toBe('Arts');
  });

  it('in update mode shows the saved brand font and takes another', async () => {
    renderForm('update');
    const font = (await screen.findByRole('combobox', { name: 'Brand Font' })) as HTMLSelectElement;
    expect(font.value).toBe('Zilla Slab');
    expect(valuesOf(font)).toEqual(['', ...googleFontFamilies]);
    expect(screen.queryByRole('combobox', { name: 'Language' })).toBeNull();
    await userEvent.selectOptions(font, 'Inter');
    expect(font.value).toBe('Inter');
    expect(screen.getByRole('option', { name: 'Inter' })).toHaveProperty('selected', true);
  });
});
