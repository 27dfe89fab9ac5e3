// The configuration form's sections: progress, personal, podcast, brand, posting and clips.
import { googleFontFamilies, podcastCategoryGroups, podcastLanguages, podcastTimezones, categoryValue } from '@domain/onboarding-lists';
import type { ReactNode } from 'react';
import { CheckboxField } from '@/components/checkbox-field';
import { FormField } from '@/components/form-field';
import { fieldLabels, texts } from '../texts';
import type { ConfigurationInputs } from './configuration-inputs';
import { selectOptions, TextAreaField } from './fields';

const t = texts.form;

const categoryOptions = selectOptions(
  podcastCategoryGroups.map((group) => ({
    group: group.name,
    options: [group.name, ...group.subcategories.map((sub) => ({ value: categoryValue(group.name, sub), label: sub }))],
  })),
);
const languageOptions = selectOptions(podcastLanguages);
const timezoneOptions = selectOptions(podcastTimezones);
const fontOptions = selectOptions(googleFontFamilies);

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

export function BrandSection({ number, inputs: { select, color, file } }: SectionProps) {
  return (
    <Section number={number} title={t.sections.brand}>
      {select('brandFont', fontOptions)}
      <div className="grid gap-3 sm:grid-cols-3">
        {color('brandColorPrimary')}
        {color('brandColorSecondary')}
        {color('brandColorTertiary')}
      </div>
      {file('logo')}
    </Section>
  );
}

export function PostSection({ number, inputs: { form } }: SectionProps) {
  return (
    <Section number={number} title={t.sections.post}>
      <CheckboxField label={t.postAutomatically} toggle {...form.register('postAutomatically')} />
      <p className="text-sm text-base-content/70">{t.postAutomaticallyHint}</p>
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
