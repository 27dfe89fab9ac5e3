// The configuration form (spec section 2), in setup mode on /onboarding and in update mode in the
// dashboard's profile card. Validation is the shared domain's: the same field rules and required
// fields the `api` function applies.
import type { Account } from '@domain/account';
import { brandAssetSlots, missingRequiredFields, profileTextFields, requiredFieldCount, type OnboardingFields, type OnboardingMode, type ProfileRecord } from '@domain/onboarding';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { errorMessage } from '@/lib/api-client';
import { delays, wait } from '@/lib/delays';
import { JUST_COMPLETED_ONBOARDING, onboardingDraftKey } from '@/lib/local-storage-keys';
import { queryKeys } from '@/lib/query-keys';
import { profileRecordQuery, useProfileRecord } from '@/lib/profile-record';
import { notify } from '@/lib/toast';
import { useCompleteOnboarding } from '../api/complete-onboarding';
import { useSaveProfile, type ChosenFiles, type UploadProgress } from '../api/save-profile';
import { fieldLabels, texts } from '../texts';
import { useFormDraft } from './configuration-draft';
import { configurationInputs } from './configuration-inputs';
import { BrandSection, ClipsSection, PersonalSection, PodcastSection, PostSection, SetupProgress } from './configuration-sections';
import { configurationSchema, defaultsFrom, podcastFields, presentFiles, type ConfigurationValues } from './configuration-values';

/** What a save sends: every text field (update mode leaves the podcast's own alone) and the files chosen. */
function profileSaveOf(submitted: ConfigurationValues, setup: boolean): { fields: OnboardingFields; files: ChosenFiles } {
  const fields: OnboardingFields = {
    postAutomatically: submitted.postAutomatically,
    reviewWindow: submitted.reviewWindow,
    postingHour: Number(submitted.postingHour),
    isFirstTimeOnboarding: setup,
  };
  for (const field of profileTextFields) {
    if (setup || !podcastFields.includes(field)) fields[field] = submitted[field];
  }
  const files: ChosenFiles = {};
  for (const slot of brandAssetSlots) {
    const file = submitted.files?.[slot];
    if (file) files[slot] = file;
  }
  return { fields, files };
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
  const completeOnboarding = useCompleteOnboarding();
  const { refetch } = useProfileRecord();
  const [progress, setProgress] = useState<UploadProgress>({});
  // Reads the stored files at validation time: a file deleted or saved since counts as it is now.
  const form = useZodForm(() => configurationSchema(mode, queryClient.getQueryData(profileRecordQuery.queryKey) ?? record), {
    defaultValues: defaultsFrom(record, account),
  });
  const values = useWatch({ control: form.control }) as ConfigurationValues;
  const draft = useFormDraft(form, onboardingDraftKey(account.id, mode));
  // Refresh Data and Discard changes drop unsaved input: asked first when there is any.
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  // Read while rendering, so react-hook-form keeps it up to date (it tracks what renders read).
  const { isDirty } = form.formState;
  const t = texts.form;
  const setup = mode === 'setup';

  const missing = missingRequiredFields(mode, values, presentFiles(record, values.files));
  const required = requiredFieldCount(mode);

  const onSubmit = async (submitted: ConfigurationValues) => {
    const { fields, files } = profileSaveOf(submitted, setup);
    setProgress({});
    try {
      await save.mutateAsync({ fields, files, onProgress: setProgress });
    } finally {
      setProgress({});
    }
    // What was saved is the form's new starting point; the draft is no longer needed.
    form.reset({ ...form.getValues(), files: {} });
    draft.clear();
    if (!setup) {
      onSaved?.();
      return;
    }
    try {
      await completeOnboarding.mutateAsync(account.id);
    } catch (error) {
      notify.error(t.finalizingFailedTitle, { description: t.finalizingFailed(errorMessage(error, t.updateFailedBody)) });
      return;
    }
    notify.success(t.onboardingComplete, { description: t.onboardingCompleteBody });
    localStorage.setItem(JUST_COMPLETED_ONBOARDING, 'true');
    await wait(delays.afterOnboardingMs);
    await queryClient.invalidateQueries({ queryKey: queryKeys.account });
    navigate('/dashboard', { replace: true });
  };

  const onInvalid = () => {
    const current = form.getValues();
    const labels = missingRequiredFields(mode, current, presentFiles(record, current.files)).map((item) => fieldLabels[item.field]);
    if (labels.length > 0) notify.error(t.requiredMissingTitle, { description: labels.join(', ') });
  };

  const refresh = async () => {
    setConfirmingDiscard(false);
    const { data } = await refetch();
    form.reset(defaultsFrom(data, account));
    draft.clear();
  };
  const askRefresh = () => (isDirty ? setConfirmingDiscard(true) : void refresh());

  const inputs = configurationInputs(form, { setup, record, values, progress });
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
      {draft.restored && (
        <div role="status" className="alert alert-info flex flex-wrap justify-between gap-2">
          <span>{t.draftRestored}</span>
          <button type="button" className="btn btn-sm" onClick={() => setConfirmingDiscard(true)}>
            {t.discardDraft}
          </button>
        </div>
      )}
      {setup && <SetupProgress done={done} required={required} />}
      <PersonalSection number={next()} inputs={inputs} />
      {setup && <PodcastSection number={next()} inputs={inputs} />}
      <BrandSection number={next()} inputs={inputs} podcastArtwork={!setup} />
      <PostSection number={next()} inputs={inputs} />
      <ClipsSection number={next()} inputs={inputs} />

      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-base-300 pt-4">
        {/* Outlined, so it reads as a button beside the primary one (a ghost button looked like text). */}
        <button type="button" className="btn btn-outline" onClick={askRefresh}>
          {t.refresh}
        </button>
        {missing.length > 0 && <p className="text-sm text-red-700">{t.missing(missing.length)}</p>}
        <SubmitButton label={setup ? t.submitSetup : t.submitUpdate} pendingLabel={setup ? t.pendingSetup : t.pendingUpdate} />
      </div>
      <ConfirmDialog
        open={confirmingDiscard}
        title={t.discardTitle}
        message={t.discardMessage}
        confirmLabel={t.discardConfirm}
        cancelLabel={t.keepEditing}
        onConfirm={() => void refresh()}
        onClose={() => setConfirmingDiscard(false)}
      />
    </Form>
  );
}
