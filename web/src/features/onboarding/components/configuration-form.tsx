// The configuration form (spec section 2), in setup mode on /onboarding and in update mode in the
// dashboard's profile card. Validation is the shared domain's: the same field rules and required
// fields the `api` function applies.
import type { Account } from '@domain/account';
import {
  attachmentOf,
  brandAssetSlots,
  isBlank,
  missingRequiredFields,
  normalizeHexColor,
  profileFieldsShape,
  profileTextFields,
  requiredFieldCount,
  type BrandAssetSlot,
  type OnboardingFields,
  type OnboardingMode,
  type ProfileRecord,
  type ProfileTextField,
} from '@domain/onboarding';
import { googleFontFamilies, podcastCategoryGroups, podcastLanguages, podcastTimezones, categoryValue } from '@domain/onboarding-lists';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod/mini';
import { Form, SubmitButton } from '@/components/form';
import { CheckboxField } from '@/components/checkbox-field';
import { FormField } from '@/components/form-field';
import { errorMessage } from '@/lib/api-client';
import { currentAccountKey } from '@/lib/current-account';
import { delays, wait } from '@/lib/delays';
import { JUST_COMPLETED_ONBOARDING } from '@/lib/local-storage-keys';
import { notify } from '@/lib/toast';
import { completeOnboarding } from '../api/complete-onboarding';
import { profileRecordQuery, useProfileRecord } from '../api/get-profile-record';
import { useSaveProfile, type ChosenFiles, type UploadProgress } from '../api/save-profile';
import { fieldLabels, texts } from '../texts';
import { ColorField, requiredLabel, SelectField, TextAreaField } from './fields';
import { FileSlot } from './file-slot';

type ConfigurationValues = Record<ProfileTextField, string> & {
  emailAddress: string;
  postAutomatically: boolean;
  files: Partial<Record<BrandAssetSlot, File | null>>;
};

const podcastFields: ProfileTextField[] = [
  'podcastTitle',
  'podcastDescription',
  'podcastAuthor',
  'podcastCopyright',
  'podcastKeywords',
  'podcastWebsite',
  'podcastLanguage',
  'podcastTimezone',
  'podcastPrimaryCategory',
  'podcastSecondaryCategory',
];
const colorFields = ['brandColorPrimary', 'brandColorSecondary', 'brandColorTertiary'] as const;

function storedFiles(record: ProfileRecord | null | undefined): Partial<Record<BrandAssetSlot, boolean>> {
  return Object.fromEntries(brandAssetSlots.map((slot) => [slot, record ? attachmentOf(record, slot)?.exists === true : false]));
}

function presentFiles(record: ProfileRecord | null | undefined, chosen: ConfigurationValues['files']) {
  const stored = storedFiles(record);
  return Object.fromEntries(brandAssetSlots.map((slot) => [slot, Boolean(stored[slot] || chosen?.[slot])]));
}

function configurationSchema(mode: OnboardingMode, record: ProfileRecord | null | undefined) {
  return z
    .object({
      ...profileFieldsShape,
      emailAddress: z.string(),
      postAutomatically: z.boolean(),
      files: z.custom<ConfigurationValues['files']>(),
    })
    .check(
      z.superRefine((values, ctx) => {
        for (const { field, message } of missingRequiredFields(mode, values, presentFiles(record, values.files))) {
          ctx.addIssue({ code: 'custom', message, path: (brandAssetSlots as readonly string[]).includes(field) ? ['files', field] : [field], input: values });
        }
      }),
    );
}

function defaultsFrom(record: ProfileRecord | null | undefined, account: Account): ConfigurationValues {
  const text = (field: ProfileTextField) => {
    const value = record?.[field] ?? null;
    if (isBlank(value)) return '';
    return colorFields.includes(field as (typeof colorFields)[number]) ? normalizeHexColor(value!) : value!;
  };
  const values = Object.fromEntries(profileTextFields.map((field) => [field, text(field)])) as Record<ProfileTextField, string>;
  return {
    ...values,
    firstName: values.firstName || account.firstName || '',
    lastName: values.lastName || account.lastName || '',
    emailAddress: record?.emailAddress ?? account.email,
    postAutomatically: record?.postAutomatically ?? account.postAutomatically,
    files: {},
  };
}

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

interface ConfigurationFormProps {
  mode: OnboardingMode;
  account: Account;
  record: ProfileRecord | null | undefined;
  /** Update mode: after a successful save. */
  onSaved?: () => void;
}

export function ConfigurationForm({ mode, account, record, onSaved }: ConfigurationFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const save = useSaveProfile();
  const { refetch } = useProfileRecord();
  const [progress, setProgress] = useState<UploadProgress>({});
  // Reads the stored files at validation time: a file deleted or saved since counts as it is now.
  const resolver = useCallback<Resolver<ConfigurationValues>>(
    (values, context, options) => {
      const latest = queryClient.getQueryData(profileRecordQuery.queryKey) ?? record;
      return (zodResolver(configurationSchema(mode, latest)) as unknown as Resolver<ConfigurationValues>)(values, context, options);
    },
    [mode, record, queryClient],
  );
  const form = useForm<ConfigurationValues>({ resolver, defaultValues: defaultsFrom(record, account) });
  const { errors } = form.formState;
  const values = useWatch({ control: form.control }) as ConfigurationValues;
  const t = texts.form;
  const setup = mode === 'setup';

  const missing = missingRequiredFields(mode, values, presentFiles(record, values.files));
  const required = requiredFieldCount(mode);
  const label = (field: keyof typeof fieldLabels) =>
    requiredLabel(fieldLabels[field], setup && missingRequiredFields('setup', {}, {}).some((item) => item.field === field));

  const onSubmit = async (submitted: ConfigurationValues) => {
    const fields: OnboardingFields = { postAutomatically: submitted.postAutomatically, isFirstTimeOnboarding: setup };
    for (const field of profileTextFields) {
      if (setup || !podcastFields.includes(field)) fields[field] = submitted[field];
    }
    const files: ChosenFiles = {};
    for (const slot of brandAssetSlots) {
      const file = submitted.files?.[slot];
      if (file) files[slot] = file;
    }
    setProgress({});
    try {
      await save.mutateAsync({ fields, files, onProgress: setProgress });
    } finally {
      setProgress({});
    }
    form.setValue('files', {});
    if (!setup) {
      onSaved?.();
      return;
    }
    try {
      await completeOnboarding(account.id);
    } catch (error) {
      notify.error(t.finalizingFailedTitle, { description: t.finalizingFailed(errorMessage(error, t.updateFailedBody)) });
      return;
    }
    notify.success(t.onboardingComplete, { description: t.onboardingCompleteBody });
    localStorage.setItem(JUST_COMPLETED_ONBOARDING, 'true');
    await wait(delays.afterOnboardingMs);
    await queryClient.invalidateQueries({ queryKey: currentAccountKey });
    navigate('/dashboard', { replace: true });
  };

  const onInvalid = () => {
    const current = form.getValues();
    const labels = missingRequiredFields(mode, current, presentFiles(record, current.files)).map((item) => fieldLabels[item.field]);
    if (labels.length > 0) notify.error(t.requiredMissingTitle, { description: labels.join(', ') });
  };

  const refresh = async () => {
    const { data } = await refetch();
    form.reset(defaultsFrom(data, account));
  };

  const text = (field: ProfileTextField, props: { type?: string; autoComplete?: string } = {}) => (
    <FormField label={label(field)} error={errors[field]?.message} {...props} {...form.register(field)} />
  );

  const select = (field: ProfileTextField, options: ReactNode) => (
    <SelectField label={label(field)} error={errors[field]?.message} {...form.register(field)}>
      {options}
    </SelectField>
  );

  const color = (field: (typeof colorFields)[number]) => (
    <Controller
      control={form.control}
      name={field}
      render={({ field: controlled, fieldState }) => (
        <ColorField label={label(field)} value={controlled.value} error={fieldState.error?.message} onChange={controlled.onChange} onBlur={controlled.onBlur} />
      )}
    />
  );

  const file = (slot: BrandAssetSlot) => (
    <FileSlot
      slot={slot}
      label={label(slot)}
      stored={record ? attachmentOf(record, slot) : undefined}
      chosen={values.files?.[slot] ?? null}
      error={errors.files?.[slot]?.message}
      progress={progress[slot]}
      onChoose={(chosen, problem) => {
        form.setValue(`files.${slot}`, chosen, { shouldDirty: true });
        if (problem) form.setError(`files.${slot}`, { type: 'file', message: problem });
        else form.clearErrors(`files.${slot}`);
      }}
    />
  );

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

  let number = 0;
  const next = () => ++number;
  const done = required - missing.length;

  return (
    <Form
      form={form}
      onSubmit={onSubmit}
      onInvalid={onInvalid}
      failureTitle={t.updateFailedTitle}
      failureDescription={t.updateFailedBody}
      failureAlert
      success={setup ? undefined : { title: t.profileUpdated, description: t.profileUpdatedBody }}
      className="flex flex-col gap-4"
    >
      {setup && (
        <div className="rounded-box bg-base-200 p-4">
          <h3 className="font-semibold">{t.progressTitle}</h3>
          <progress className="progress progress-primary mt-2 w-full" value={done} max={required} aria-label={t.progressTitle} />
          <p className="mt-1 text-sm">
            {t.progress(done, required)} ({Math.round((done / required) * 100)}%)
          </p>
          <p className="text-sm text-base-content/70">{t.progressHint}</p>
        </div>
      )}

      <Section number={next()} title={t.sections.personal}>
        <div className="grid gap-3 sm:grid-cols-2">
          {text('firstName', { autoComplete: 'given-name' })}
          {text('lastName', { autoComplete: 'family-name' })}
        </div>
        <FormField label={fieldLabels.emailAddress} type="email" readOnly {...form.register('emailAddress')} aria-describedby="email-hint" />
        <p id="email-hint" className="text-sm text-base-content/70">
          {t.emailHint}
        </p>
      </Section>

      {setup && (
        <Section number={next()} title={t.sections.podcast}>
          {text('podcastTitle')}
          <TextAreaField label={label('podcastDescription')} rows={4} error={errors.podcastDescription?.message} {...form.register('podcastDescription')} />
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
            {select('podcastLanguage', optionsOf(podcastLanguages))}
            {select('podcastTimezone', optionsOf(podcastTimezones))}
          </div>
        </Section>
      )}

      <Section number={next()} title={t.sections.brand}>
        {select('brandFont', optionsOf(googleFontFamilies))}
        <div className="grid gap-3 sm:grid-cols-3">
          {color('brandColorPrimary')}
          {color('brandColorSecondary')}
          {color('brandColorTertiary')}
        </div>
        {file('logo')}
      </Section>

      <Section number={next()} title={t.sections.post}>
        <CheckboxField label={t.postAutomatically} toggle {...form.register('postAutomatically')} />
        <p className="text-sm text-base-content/70">{t.postAutomaticallyHint}</p>
      </Section>

      <Section number={next()} title={t.sections.clips}>
        <div className="grid gap-3 sm:grid-cols-2">
          {file('videoIntro')}
          {file('videoOutro')}
          {file('clipIntro')}
          {file('clipOutro')}
        </div>
      </Section>

      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-base-300 pt-4">
        <button type="button" className="btn btn-ghost" onClick={() => void refresh()}>
          {t.refresh}
        </button>
        {missing.length > 0 && <p className="text-sm text-red-700">{t.missing(missing.length)}</p>}
        <SubmitButton label={setup ? t.submitSetup : t.submitUpdate} pendingLabel={setup ? t.pendingSetup : t.pendingUpdate} />
      </div>
    </Form>
  );
}
