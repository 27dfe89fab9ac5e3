// Postpone all: every post of the episode not out yet moves the same number of days later.
import { z } from 'zod/mini';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { FormField } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { notify } from '@/lib/toast';
import { useChangeEpisodePosts } from '../api/change-episode-posts';
import { reviewTexts as t } from '../texts';

const daysFormSchema = z.object({
  days: z.string().check(z.refine((value) => /^\d+$/.test(value.trim()) && Number(value) >= 1 && Number(value) <= 365, t.postponeDaysInvalid)),
});

export default function PostponeAllDialog({ episodeId, onClose }: { episodeId: string; onClose: () => void }) {
  const change = useChangeEpisodePosts(episodeId);
  const form = useZodForm(daysFormSchema, { defaultValues: { days: '1' } });
  return (
    <Modal open title={t.postponeAllTitle} onClose={onClose} closeLabel={t.close}>
      <Form
        form={form}
        onSubmit={async ({ days }) => {
          const { changed } = await change.mutateAsync({ action: 'postpone', days: Number(days) });
          notify.success(t.postponedAllTitle, { description: t.postponedAll(changed) });
          onClose();
        }}
        failureTitle={t.postponeAllFailedTitle}
        failureAlert
      >
        <FormField label={t.postponeDays} inputMode="numeric" error={form.formState.errors.days?.message} {...form.register('days')} />
        <SubmitButton label={t.savePostponeAll} pendingLabel={t.postponingAll} />
      </Form>
    </Modal>
  );
}
