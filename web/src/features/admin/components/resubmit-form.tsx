// The resubmission form: user e-mail, files, start/end, admin clip style, days between clips and
// the two switches. The button stays disabled until a file and an e-mail are given. The console
// owns the form's state (selecting a log or a file fills it); this card submits it.
import {
  ADMIN_CLIP_STYLES,
  emptyResubmitForm,
  MIN_DAYS_BETWEEN_CLIPS,
  missingForResubmit,
  resubmitPayloadOf,
  type ResubmitForm,
} from '@domain/admin-resubmit';
import { useId } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { CheckboxField } from '@/components/checkbox-field';
import { Form } from '@/components/form';
import { FormField, LabelledField } from '@/components/form-field';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useResubmitEpisode } from '../api/resubmit-episode';
import { texts } from '../texts';

/** Anything but a whole number of at least the minimum becomes the minimum. */
function daysOf(input: string): number {
  const days = Number.parseInt(input, 10);
  return Number.isInteger(days) && days >= MIN_DAYS_BETWEEN_CLIPS ? days : MIN_DAYS_BETWEEN_CLIPS;
}

/** The object storage files chosen for the resubmission, each with its remove button. */
function SelectedFiles({ files, onRemove }: { files: string[]; onRemove: (path: string) => void }) {
  const headingId = useId();
  return (
    <div>
      <h3 id={headingId} className="font-medium">
        {texts.selectedFiles}
      </h3>
      {files.length === 0 ? (
        <p className="text-sm">{texts.noneSelected}</p>
      ) : (
        <ul aria-labelledby={headingId} className="mt-1 flex flex-col gap-1">
          {files.map((path) => (
            <li key={path} className="flex items-center justify-between gap-2 text-sm">
              <span className="break-all">{path}</span>
              <button type="button" className="btn btn-ghost btn-xs" aria-label={texts.removeFile(path)} onClick={() => onRemove(path)}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ResubmitFormCard({ form }: { form: UseFormReturn<ResubmitForm> }) {
  const ids = { clipStyle: useId(), days: useId(), missing: useId() };
  const resubmit = useResubmitEpisode();
  const values = useWatch({ control: form.control }) as ResubmitForm;
  const missing = missingForResubmit(values);
  const submitting = resubmit.isPending;

  const onSubmit = async (submitted: ResubmitForm) => {
    const result = await resubmit.mutateAsync(resubmitPayloadOf(submitted));
    notify.success(texts.successTitle, { description: result.message });
    form.reset(emptyResubmitForm);
  };

  const onInvalid = () => {
    const [first] = missingForResubmit(form.getValues());
    if (first) notify.error(first.title, { description: first.message });
  };

  return (
    <section aria-labelledby="resubmit-form-title" className="card border border-base-300 bg-base-100">
      <Form
        form={form}
        onSubmit={onSubmit}
        onInvalid={onInvalid}
        failureTitle={texts.failedTitle}
        failureDescription={(error) => errorMessage(error, texts.failed)}
        className="card-body gap-3"
      >
        <h2 id="resubmit-form-title" className="card-title">
          {texts.formTitle}
        </h2>
        <FormField label={texts.userEmail} type="email" autoComplete="off" {...form.register('userEmail')} />

        <SelectedFiles
          files={values.objectStorageFiles}
          onRemove={(path) =>
            form.setValue(
              'objectStorageFiles',
              values.objectStorageFiles.filter((f) => f !== path),
            )
          }
        />

        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label={texts.startTimestamp} placeholder="00:00:00" {...form.register('startTimestamp')} />
          <FormField label={texts.endTimestamp} placeholder="00:00:00" {...form.register('endTimestamp')} />
        </div>

        <div className="grid gap-3 sm:grid-cols-2">
          <LabelledField id={ids.clipStyle} label={texts.clipStyle}>
            <select id={ids.clipStyle} className="select select-bordered w-full" {...form.register('clipStyle')}>
              {ADMIN_CLIP_STYLES.map((style) => (
                <option key={style} value={style}>
                  {style}
                </option>
              ))}
            </select>
          </LabelledField>
          {/* Controlled: a value that is not a whole number shows the minimum at once. */}
          <FormField
            id={ids.days}
            label={texts.daysBetweenClips}
            type="number"
            min={MIN_DAYS_BETWEEN_CLIPS}
            step={1}
            value={values.daysBetweenClips}
            onChange={(e) => form.setValue('daysBetweenClips', daysOf(e.target.value))}
          />
        </div>

        <div className="flex flex-wrap gap-6">
          <CheckboxField label={texts.addLogo} {...form.register('addLogo')} />
          <CheckboxField label={texts.addIntroOutro} {...form.register('addIntroOutro')} />
        </div>

        {missing.length > 0 && (
          <ul id={ids.missing} className="text-sm">
            {missing.map((item) => (
              <li key={item.title}>
                <span className="font-medium">{item.title}</span>: {item.message}
              </li>
            ))}
          </ul>
        )}

        <div className="card-actions justify-end">
          <button type="button" className="btn btn-ghost" onClick={() => form.reset(emptyResubmitForm)} disabled={submitting}>
            {texts.clear}
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={missing.length > 0 || submitting}
            aria-describedby={missing.length > 0 ? ids.missing : undefined}
          >
            {submitting ? texts.resubmitting : texts.resubmit}
          </button>
        </div>
      </Form>
    </section>
  );
}
