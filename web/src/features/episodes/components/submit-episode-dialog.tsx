// The Submit New Episode dialog (spec sections 2, 4, 5 and 8): resumable uploads of up to 10
// MP4 files, the options form, and the submit button labelled by the gating.
import {
  CLIP_STYLES,
  defaultEpisodeOptions,
  type EpisodeStats,
  EPISODE_MIME_TYPE,
  formatDuration,
  MAX_EPISODE_TITLE_LENGTH,
  normalizeDaysBetweenClips,
  submissionOf,
  submitFormSchemaFor,
  type SubmitForm,
} from '@domain/episodes';
import { type DragEvent, type ReactNode, useId, useState } from 'react';
import { CheckboxField } from '@/components/checkbox-field';
import { Form, useZodForm } from '@/components/form';
import { FormField } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useSubmitEpisode } from '../api/submit-episode';
import { episodeTexts as t, gatingTexts as g } from '../texts';
import { formatTimeLeft } from '../upload/time-left';
import { type UploadItem } from '../upload/upload-queue';
import { useEpisodeUploads } from '../upload/use-episode-uploads';
import { gateOf } from './gating';

const emptyForm: SubmitForm = { ...defaultEpisodeOptions, title: '', guests: '' };

interface Props {
  userId: string;
  stats: EpisodeStats;
  open: boolean;
  onClose: () => void;
  /** Offered with the monthly limit banner. */
  upgradeAction?: ReactNode;
}

function FileRow({ item, onRemove, onRetry }: { item: UploadItem; onRemove: () => void; onRetry: () => void }) {
  const percent = item.size === 0 ? 100 : Math.floor((item.bytesUploaded / item.size) * 100);
  const state = item.status === 'uploaded' ? t.uploaded : item.status === 'failed' ? t.failed : t.uploading;
  return (
    <li className="flex flex-col gap-1 py-2">
      <div className="flex items-center justify-between gap-2">
        <span className="truncate font-medium">{item.name}</span>
        <span className="shrink-0 text-sm text-base-content/70">
          {t.fileSize(item.size)} · {state} {item.status === 'uploading' ? `${percent}%` : ''}
        </span>
      </div>
      <progress
        className="progress progress-primary w-full"
        value={percent}
        max={100}
        aria-label={t.fileProgress(item.name)}
      />
      {item.status === 'uploading' && (item.resumed || typeof item.secondsLeft === 'number') && (
        <p className="flex flex-wrap gap-x-3 text-sm text-base-content/70">
          {item.resumed && <span className="font-medium text-base-content">{t.resuming}</span>}
          {typeof item.secondsLeft === 'number' && <span>{formatTimeLeft(item.secondsLeft)}</span>}
        </p>
      )}
      {item.error && <p className="text-sm text-red-700">{item.error}</p>}
      <div className="flex gap-2">
        {item.status === 'failed' && (
          <button type="button" className="btn btn-xs" onClick={onRetry}>
            {t.retryUpload(item.name)}
          </button>
        )}
        <button type="button" className="btn btn-ghost btn-xs" onClick={onRemove}>
          {item.status === 'uploaded' ? t.removeFile(item.name) : t.cancelUpload(item.name)}
        </button>
      </div>
    </li>
  );
}

export default function SubmitEpisodeDialog({ userId, stats, open, onClose, upgradeAction }: Props) {
  const fileInputId = useId();
  const uploads = useEpisodeUploads(userId);
  const submit = useSubmitEpisode();
  const gate = gateOf(stats);
  // The trim times are checked against the uploaded videos' length (when their headers say it)
  // before anything is submitted; the server checks them again.
  const { videoSeconds } = uploads;
  const form = useZodForm(() => submitFormSchemaFor(videoSeconds), { defaultValues: emptyForm });
  const { errors } = form.formState;
  // Files dragged over the file area: it highlights, and dropping adds them like choosing does.
  const [dragging, setDragging] = useState(false);
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    uploads.addFiles(Array.from(event.dataTransfer.files));
  };

  // A refused submission toasts its own words (Form's failure toast, with the spec's fallbacks).
  const onSubmit = async (values: SubmitForm) => {
    if (gate) {
      notify.error(g.submissionBlockedTitle, {
        description:
          gate === 'google_drive_invalid' || gate === 'google_drive_required' ? g.toast[gate] : g.toast.other,
      });
      return;
    }
    if (uploads.uploadedPaths.length === 0) {
      notify.error(t.noFilesTitle, { description: t.noFiles });
      return;
    }
    await submit.mutateAsync({ uploadUrls: uploads.uploadedPaths, episodeData: submissionOf(values) });
    notify.success(t.successTitle, { description: t.success });
    uploads.clear();
    form.reset(emptyForm);
    onClose();
  };

  const submitLabel = submit.isPending ? t.submitting : gate ? g.button[gate] : t.submit;

  return (
    <Modal
      open={open}
      title={t.dialogTitle}
      onClose={onClose}
      closeLabel={t.close}
      headingLevel={2}
      boxClassName="flex max-w-2xl flex-col gap-4"
      keepMounted
    >
      {gate && (
        <div role="alert" className="alert alert-warning">
          <span>{g.banner[gate]}</span>
          {gate === 'monthly_limit' && upgradeAction}
        </div>
      )}

      <Form
        form={form}
        onSubmit={onSubmit}
        failureTitle={t.submitFailedTitle}
        failureDescription={(error) => errorMessage(error, t.submitFailed, t.serverError)}
        className="flex flex-col gap-4"
      >
        <fieldset className="flex flex-col gap-2">
          <legend className="font-semibold">{t.filesLegend}</legend>
          {/* The drop area is for pointers; the file input inside it is the keyboard's way. */}
          <div
            data-testid="episode-drop-zone"
            className={`flex flex-col gap-2 rounded-box border-2 border-dashed p-3 ${dragging ? 'border-primary bg-primary/10' : 'border-base-300'}`}
            onDragOver={onDragOver}
            onDragLeave={(event) => {
              // Moving onto a child of the area is not leaving it.
              if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
            }}
            onDrop={onDrop}
          >
            <p className="text-sm" aria-live="polite">
              {dragging ? t.dropNow : t.dropZone}
            </p>
            <label htmlFor={fileInputId} className="text-sm font-medium">
              {t.chooseFiles}
            </label>
            <input
              id={fileInputId}
              type="file"
              accept={EPISODE_MIME_TYPE}
              multiple
              className="file-input file-input-bordered w-full"
              aria-describedby={`${fileInputId}-hint`}
              onChange={(event) => {
                uploads.addFiles(Array.from(event.target.files ?? []));
                event.target.value = '';
              }}
            />
            <p id={`${fileInputId}-hint`} className="text-sm text-base-content/70">
              {t.uploadHint}
            </p>
          </div>
          {uploads.problem && (
            <p role="alert" className="text-sm text-red-700">
              {uploads.problem}
            </p>
          )}
          {uploads.interrupted.length > 0 && (
            <div className="rounded-box bg-base-200 p-3 text-sm">
              <div className="flex items-start justify-between gap-2">
                <p className="font-semibold">{t.interruptedTitle}</p>
                <button type="button" className="btn btn-ghost btn-xs" onClick={uploads.dismissInterrupted}>
                  {t.dismissInterrupted}
                </button>
              </div>
              <p>{t.interruptedHint}</p>
              <ul className="list-inside list-disc">
                {uploads.interrupted.map((entry) => (
                  <li key={`${entry.name}-${entry.size}`}>
                    {entry.name} ({t.fileSize(entry.size)})
                  </li>
                ))}
              </ul>
            </div>
          )}
          {uploads.items.length > 0 && (
            <>
              <ul className="divide-y divide-base-300">
                {uploads.items.map((item) => (
                  <FileRow
                    key={item.id}
                    item={item}
                    onRemove={() => void uploads.remove(item.id)}
                    onRetry={() => uploads.retry(item.id)}
                  />
                ))}
              </ul>
              <label className="flex flex-col gap-1 text-sm">
                <span>
                  {t.overallProgress}: {uploads.overall}%
                </span>
                <progress
                  className="progress progress-secondary w-full"
                  value={uploads.overall}
                  max={100}
                  aria-label={t.overallProgress}
                />
              </label>
            </>
          )}
        </fieldset>

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

        {submit.isPending && (
          <p role="status" className="text-sm">
            {t.processing}
          </p>
        )}
        <div className="modal-action">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={Boolean(gate) || submit.isPending || uploads.uploading}
          >
            {submitLabel}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
