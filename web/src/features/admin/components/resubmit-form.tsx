// The resubmission form: user e-mail, files, start/end, admin clip style, days between clips and
// the two switches. The button stays disabled until a file and an e-mail are given.
import {
  ADMIN_CLIP_STYLES,
  MIN_DAYS_BETWEEN_CLIPS,
  missingForResubmit,
  type AdminClipStyle,
  type ResubmitForm,
} from '@domain/admin-resubmit';
import { useId, type FormEvent } from 'react';
import { CheckboxField } from '@/components/checkbox-field';
import { FormField, LabelledField } from '@/components/form-field';
import { texts } from '../texts';

interface Props {
  form: ResubmitForm;
  onChange: (form: ResubmitForm) => void;
  onSubmit: () => void;
  onClear: () => void;
  submitting: boolean;
}

export function ResubmitFormCard({ form, onChange, onSubmit, onClear, submitting }: Props) {
  const ids = { clipStyle: useId(), days: useId(), missing: useId(), files: useId() };
  const missing = missingForResubmit(form);
  const set = <K extends keyof ResubmitForm>(key: K, value: ResubmitForm[K]) => onChange({ ...form, [key]: value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <section aria-labelledby="resubmit-form-title" className="card border border-base-300 bg-base-100">
      <form className="card-body gap-3" onSubmit={submit} noValidate>
        <h2 id="resubmit-form-title" className="card-title">
          {texts.formTitle}
        </h2>
        <FormField
          label={texts.userEmail}
          type="email"
          autoComplete="off"
          value={form.userEmail}
          onChange={(e) => set('userEmail', e.target.value)}
        />

        <div>
          <h3 id={ids.files} className="font-medium">
            {texts.selectedFiles}
          </h3>
          {form.objectStorageFiles.length === 0 ? (
            <p className="text-sm">{texts.noneSelected}</p>
          ) : (
            <ul aria-labelledby={ids.files} className="mt-1 flex flex-col gap-1">
              {form.objectStorageFiles.map((path) => (
                <li key={path} className="flex items-center justify-between gap-2 text-sm">
                  <span className="break-all">{path}</span>
                  <button
                    type="button"
                    className="btn btn-ghost btn-xs"
                    aria-label={texts.removeFile(path)}
                    onClick={() =>
                      set(
                        'objectStorageFiles',
                        form.objectStorageFiles.filter((f) => f !== path),
                      )
                    }
                  >
                    ✕
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>

        <div className="grid gap-3 sm:grid-cols-2">
          <FormField
            label={texts.startTimestamp}
            placeholder="00:00:00"
            value={form.startTimestamp}
            onChange={(e) => set('startTimestamp', e.target.value)}
          />
          <FormField
            label={texts.endTimestamp}
            placeholder="00:00:00"
            value={form.endTimestamp}
            onChange={(e) => set('endTimestamp', e.target.value)}
          />
        </div>

        <div className="grid gap-3 sm:grid-cols-2">
          <LabelledField id={ids.clipStyle} label={texts.clipStyle}>
            <select
              id={ids.clipStyle}
              className="select select-bordered w-full"
              value={form.clipStyle}
              onChange={(e) => set('clipStyle', e.target.value as AdminClipStyle)}
            >
              {ADMIN_CLIP_STYLES.map((style) => (
                <option key={style} value={style}>
                  {style}
                </option>
              ))}
            </select>
          </LabelledField>
          <FormField
            id={ids.days}
            label={texts.daysBetweenClips}
            type="number"
            min={MIN_DAYS_BETWEEN_CLIPS}
            step={1}
            value={form.daysBetweenClips}
            onChange={(e) => {
              const days = Number.parseInt(e.target.value, 10);
              set(
                'daysBetweenClips',
                Number.isInteger(days) && days >= MIN_DAYS_BETWEEN_CLIPS ? days : MIN_DAYS_BETWEEN_CLIPS,
              );
            }}
          />
        </div>

        <div className="flex flex-wrap gap-6">
          <CheckboxField label={texts.addLogo} checked={form.addLogo} onChange={(e) => set('addLogo', e.target.checked)} />
          <CheckboxField label={texts.addIntroOutro} checked={form.addIntroOutro} onChange={(e) => set('addIntroOutro', e.target.checked)} />
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
          <button type="button" className="btn btn-ghost" onClick={onClear} disabled={submitting}>
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
      </form>
    </section>
  );
}
