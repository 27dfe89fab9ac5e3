// The configuration form's sections: progress, personal, podcast, brand, posting and clips.
import { googleFontFamilies, podcastCategoryGroups, podcastLanguages, podcastTimezones, categoryValue } from '@domain/onboarding-lists';
import type { ReactNode } from 'react';
import { CheckboxField } from '@/components/checkbox-field';
import { FormField } from '@/components/form-field';
import { fieldLabels, texts } from '../texts';
import type { ConfigurationInputs } from './configuration-inputs';
import { SelectField, TextAreaField } from '@/components/form-field';
import { postingHourLabel, REVIEW_WINDOWS, reviewWindowLabels } from '@domain/review';

const t = texts.form;

/** One <option> per entry; a plain string is both the value and the label. */
function optionsOf(list: readonly (string | { value: string; label: string })[]) {
  return list.map((entry) => {
    const { value, label } = typeof entry === 'string' ? { value: entry, label: entry } : entry;
    return (
      <option key={value} value={value}>
        {label}
      </option>
    );
  });
}

// Each list's options are made once, here: the form renders again on every keystroke (it watches
// its values), and React skips an element it rendered before unchanged, so the brand font's 1,582
// options are not compared again each time. The first render still builds them, in React's
// concurrent render (the form is shown through useDeferredValue), which yields between pieces.
const categoryOptions = podcastCategoryGroups.map((group) => (
  <optgroup key={group.name} label={group.name}>
    <option value={group.name}>{group.name}</option>
    {group.subcategories.map((sub) => (
      <option key={sub} value={categoryValue(group.name, sub)}>
        {sub}
      </option>
    ))}
  </optgroup>
));
const languageOptions = optionsOf(podcastLanguages);
const timezoneOptions = optionsOf(podcastTimezones);
const fontOptions = optionsOf(googleFontFamilies);

function Section({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 rounded-box border border-base-300 p-4" aria-labelledby={`section-${number}`}>
      <h3 id={`section-${number}`} className="text-lg font-semibold">
        {number}. {title}
      </h3>
      {children}
    </section>
  );
}

interface SectionProps {
  number: number;
  inputs: ConfigurationInputs;
}

export function SetupProgress({ done, required }: { done: number; required: number }) {
  return (
    <div className="rounded-box bg-base-200 p-4">
      <h3 className="font-semibold">{t.progressTitle}</h3>
      <progress className="progress progress-primary mt-2 w-full" value={done} max={required} aria-label={t.progressTitle} />
      <p className="mt-1 text-sm">
        {t.progress(done, required)} ({Math.round((done / required) * 100)}%)
      </p>
      <p className="text-sm text-base-content/70">{t.progressHint}</p>
    </div>
  );
}

export function PersonalSection({ number, inputs: { form, text } }: SectionProps) {
  return (
    <Section number={number} title={t.sections.personal}>
      <div className="grid gap-3 sm:grid-cols-2">
        {text('firstName', { autoComplete: 'given-name' })}
        {text('lastName', { autoComplete: 'family-name' })}
      </div>
      <FormField label={fieldLabels.emailAddress} type="email" readOnly {...form.register('emailAddress')} aria-describedby="email-hint" />
      <p id="email-hint" className="text-sm text-base-content/70">
        {t.emailHint}
      </p>
    </Section>
  );
}

export function PodcastSection({ number, inputs: { form, label, text, select, file } }: SectionProps) {
  return (
    <Section number={number} title={t.sections.podcast}>
      {text('podcastTitle')}
      <TextAreaField label={label('podcastDescription')} rows={4} error={form.formState.errors.podcastDescription?.message} {...form.register('podcastDescription')} />
      {text('podcastAuthor')}
      {file('podcastCover')}
      <div className="grid gap-3 sm:grid-cols-2">
        {select('podcastPrimaryCategory', categoryOptions)}
        {select('podcastSecondaryCategory', categoryOptions)}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {text('podcastCopyright')}
        {text('podcastWebsite', { type: 'url' })}
      </div>
      {text('podcastKeywords')}
      <div className="grid gap-3 sm:grid-cols-2">
        {select('podcastLanguage', languageOptions)}
        {select('podcastTimezone', timezoneOptions)}
      </div>
    </Section>
  );
}

/** `podcastArtwork`: the artwork slot too (update mode, which has no Podcast Details: the feed's artwork stays replaceable). */
export function BrandSection({ number, inputs: { select, color, file }, podcastArtwork = false }: SectionProps & { podcastArtwork?: boolean }) {
  return (
    <Section number={number} title={t.sections.brand}>
      {select('brandFont', fontOptions)}
      <div className="grid gap-3 sm:grid-cols-3">
        {color('brandColorPrimary')}
        {color('brandColorSecondary')}
        {color('brandColorTertiary')}
      </div>
      {file('logo')}
      {podcastArtwork && file('podcastCover')}
    </Section>
  );
}

export function PostSection({ number, inputs: { form } }: SectionProps) {
  return (
    <Section number={number} title={t.sections.post}>
      <CheckboxField label={t.postAutomatically} toggle {...form.register('postAutomatically')} />
      <p className="text-sm text-base-content/70">{t.postAutomaticallyHint}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField label={t.reviewWindow} {...form.register('reviewWindow')}>
          {REVIEW_WINDOWS.map((window) => (
            <option key={window} value={window}>
              {reviewWindowLabels[window]}
            </option>
          ))}
        </SelectField>
        <SelectField label={t.postingHour} {...form.register('postingHour')}>
          {Array.from({ length: 24 }, (_, hour) => (
            <option key={hour} value={String(hour)}>
              {postingHourLabel(hour)}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="text-sm text-base-content/70">{t.reviewWindowHint}</p>
    </Section>
  );
}

export function ClipsSection({ number, inputs: { file } }: SectionProps) {
  return (
    <Section number={number} title={t.sections.clips}>
      <div className="grid gap-3 sm:grid-cols-2">
        {file('videoIntro')}
        {file('videoOutro')}
        {file('clipIntro')}
        {file('clipOutro')}
      </div>
    </Section>
  );
}
