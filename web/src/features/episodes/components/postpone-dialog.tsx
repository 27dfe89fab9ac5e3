// The posting calendar's Postpone dialog, in its own chunk: the episode page's first load does
// not carry the form library for it.
import { postponeProblem, type ScheduledPost } from '@domain/episode-page';
import { z } from 'zod/mini';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { FormField } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { usePostponePost } from '../api/postpone-post';
import { episodePageTexts as t } from '../texts';

/** `date` as a datetime-local input's value, in the browser's time zone. */
function localInputValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

const postponeFormSchema = z.object({
  when: z.string().check(
    z.superRefine((value, ctx) => {
      const problem = postponeProblem(new Date(value));
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    }),
  ),
});
type PostponeForm = z.infer<typeof postponeFormSchema>;

/** Postpone: a new date in the future for one post (`clip` on `platform`), checked here and again in SQL. */
export default function PostponeDialog({
  episodeId,
  post,
  clip,
  platform,
  onClose,
}: {
  episodeId: string;
  post: ScheduledPost;
  clip: string;
  platform: string;
  onClose: () => void;
}) {
  const postpone = usePostponePost(episodeId);
  // A day after its date (or from now, for a post already due), on the minute.
  const start = new Date(Math.max(new Date(post.scheduledFor).getTime(), Date.now()) + 86_400_000);
  const form = useZodForm(postponeFormSchema, { defaultValues: { when: localInputValue(start) } });
  const onSubmit = async ({ when }: PostponeForm) => {
    await postpone.mutateAsync({ postId: post.id, scheduledFor: new Date(when).toISOString() });
    onClose();
  };
  return (
    <Modal open title={t.postponeTitle} onClose={onClose} closeLabel={t.close}>
      <p className="py-2">{t.postponeIntro(clip, platform)}</p>
      <Form
        form={form}
        onSubmit={onSubmit}
        failureTitle={t.postponeFailedTitle}
        failureAlert
        success={{ title: t.postponedTitle }}
      >
        <FormField
          label={t.newDate}
          type="datetime-local"
          error={form.formState.errors.when?.message}
          {...form.register('when')}
        />
        <SubmitButton label={t.savePostpone} pendingLabel={t.savingPostpone} />
      </Form>
    </Modal>
  );
}
