// The Submit New Episode dialog (spec sections 2, 4, 5 and 8): resumable uploads of up to 10
// MP4 files, the options form, and the submit button labelled by the gating.
import { defaultEpisodeOptions, type EpisodeStats, submissionOf, submitFormSchemaFor, type SubmitForm } from '@domain/episodes';
import { isHighestPlan } from '@domain/plans';
import { type ReactNode, useEffect } from 'react';
import { Form, useZodForm } from '@/components/form';
import { Modal } from '@/components/modal';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useSubmitEpisode } from '../api/submit-episode';
import { episodeTexts as t, gatingTexts as g } from '../texts';
import type { BackgroundUploads } from '../upload/remembered';
import { useEpisodeUploads } from '../upload/use-episode-uploads';
import { EpisodeFilesFieldset } from './episode-files-fieldset';
import { EpisodeOptionsFieldset } from './episode-options-fieldset';
import { gateOf } from './gating';

const emptyForm: SubmitForm = { ...defaultEpisodeOptions, title: '', guests: '' };

interface Props {
  userId: string;
  stats: EpisodeStats;
  open: boolean;
  onClose: () => void;
  /** Offered with the monthly limit banner. */
  upgradeAction?: ReactNode;
  /** Told what its uploads a reload interrupted are doing, for the panel's notice while it is closed. */
  onBackgroundUploads?: (state: BackgroundUploads) => void;
}

export default function SubmitEpisodeDialog({ userId, stats, open, onClose, upgradeAction, onBackgroundUploads }: Props) {
  const uploads = useEpisodeUploads(userId);
  const resuming = uploads.items.filter((item) => item.status === 'uploading' && item.resumed).map((item) => item.name);
  const waiting = uploads.interrupted.map((entry) => entry.name);
  // One key for both lists: the panel hears of a change, not of every render.
  const backgroundKey = JSON.stringify([resuming, waiting]);
  useEffect(() => {
    const [nowResuming, nowWaiting] = JSON.parse(backgroundKey) as [string[], string[]];
    onBackgroundUploads?.({ resuming: nowResuming, waiting: nowWaiting });
  }, [backgroundKey, onBackgroundUploads]);
  const submit = useSubmitEpisode();
  const gate = gateOf(stats);
  // The trim times are checked against the uploaded videos' length (when their headers say it)
  // before anything is submitted; the server checks them again.
  const { videoSeconds } = uploads;
  const form = useZodForm(() => submitFormSchemaFor(videoSeconds), { defaultValues: emptyForm });

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
          <span>{gate === 'monthly_limit' && isHighestPlan(stats.subscriptionTier) ? g.banner.monthlyLimitHighestPlan : g.banner[gate]}</span>
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
        <EpisodeFilesFieldset uploads={uploads} />
        <EpisodeOptionsFieldset form={form} videoSeconds={videoSeconds} />

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
