// The configuration form's inputs, one builder per kind (text, select, color, file), bound to the form.
import { attachmentOf, missingRequiredFields, type BrandAssetSlot, type ProfileRecord, type ProfileTextField } from '@domain/onboarding';
import type { ReactNode } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { FormField, SelectField } from '@/components/form-field';
import type { UploadProgress } from '../api/save-profile';
import { fieldLabels, texts } from '../texts';
import type { ConfigurationValues, colorFields } from './configuration-values';
import { ColorField, requiredLabel } from './fields';
import { FileSlot } from './file-slot';

export interface ConfigurationInputs {
  form: UseFormReturn<ConfigurationValues>;
  label: (field: keyof typeof fieldLabels) => string;
  text: (field: ProfileTextField, props?: { type?: string; autoComplete?: string }) => ReactNode;
  select: (field: ProfileTextField, options: ReactNode) => ReactNode;
  color: (field: (typeof colorFields)[number]) => ReactNode;
  file: (slot: BrandAssetSlot) => ReactNode;
}

interface InputsContext {
  setup: boolean;
  record: ProfileRecord | null | undefined;
  values: ConfigurationValues;
  progress: UploadProgress;
}

export function configurationInputs(form: UseFormReturn<ConfigurationValues>, { setup, record, values, progress }: InputsContext): ConfigurationInputs {
  const { errors } = form.formState;
  const label = (field: keyof typeof fieldLabels) =>
    requiredLabel(fieldLabels[field], setup && missingRequiredFields('setup', {}, {}).some((item) => item.field === field));

  const text = (field: ProfileTextField, props: { type?: string; autoComplete?: string } = {}) => (
    <FormField label={label(field)} error={errors[field]?.message} {...props} {...form.register(field)} />
  );

  const select = (field: ProfileTextField, options: ReactNode) => (
    <SelectField label={label(field)} error={errors[field]?.message} placeholder={texts.form.selectPlaceholder} {...form.register(field)}>
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

  return { form, label, text, select, color, file };
}
