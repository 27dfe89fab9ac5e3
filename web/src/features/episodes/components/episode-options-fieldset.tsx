// The Submit New Episode dialog's options (spec section 5): the episode's title and guests (both
// optional, issue 41), trim times (checked against the uploaded videos' length when their headers
// say it), logo and intro/outro switches, clip style and days between clips.
import {
  CLIP_STYLES,
  formatDuration,
  MAX_EPISODE_TITLE_LENGTH,
  normalizeDaysBetweenClips,
  type SubmitForm,
  type submitFormSchemaFor,
} from '@domain/episodes';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod/mini';
import { CheckboxField } from '@/components/checkbox-field';
import { FormField } from '@/components/form-field';
import { episodeTexts as t } from '../texts';

/** The dialog's form: the options as typed (every one may be left to its default) and as submitted. */
type EpisodeOptionsForm = UseFormReturn<z.input<ReturnType<typeof submitFormSchemaFor>>, unknown, SubmitForm>;

export function EpisodeOptionsFieldset({ form, videoSeconds }: { form: EpisodeOptionsForm; videoSeconds: number | null }) {
  const { errors } = form.formState;
  return (
    <fieldset className="grid gap-3 sm:grid-cols-2">
      <legend className="mb-2 font-semibold">{t.optionsLegend}</legend>
      <div className="sm:col-span-2">
        <FormField label={t.episodeTitle} maxLength={MAX_EPISODE_TITLE_LENGTH} error={errors.title?.message} {...form.register('title')} />
        <p className="mt-1 text-sm text-base-content/70">{t.episodeTitleHint}</p>
      </div>
      <div className="sm:col-span-2">
        <FormField label={t.guests} error={errors.guests?.message} {...form.register('guests')} />
      </div>
      {videoSeconds !== null && <p className="text-sm text-base-content/70 sm:col-span-2">{t.videoLength(formatDuration(videoSeconds))}</p>}
      <FormField
        label={t.startTimestamp}
        placeholder={t.timestampPlaceholder}
        error={errors.startTimestamp?.message}
        {...form.register('startTimestamp')}
      />
      <FormField
        label={t.endTimestamp}
        placeholder={t.timestampPlaceholder}
        error={errors.endTimestamp?.message}
        {...form.register('endTimestamp')}
      />
      <CheckboxField label={t.addLogo} {...form.register('addLogo')} />
      <CheckboxField label={t.addIntroOutro} {...form.register('addIntroOutro')} />
      <label className="flex flex-col gap-1">
        <span className="label-text font-medium">{t.clipStyle}</span>
        <select className="select select-bordered w-full" {...form.register('clipStyle')}>
          {CLIP_STYLES.map((style) => (
            <option key={style} value={style}>
              {t.clipStyles[style]}
            </option>
          ))}
        </select>
      </label>
      <FormField
        label={t.daysBetweenClips}
        type="number"
        min={1}
        max={30}
        inputMode="numeric"
        {...form.register('daysBetweenClips', { setValueAs: normalizeDaysBetweenClips })}
        onBlur={(event) => form.setValue('daysBetweenClips', normalizeDaysBetweenClips(event.target.value))}
      />
    </fieldset>
  );
}
