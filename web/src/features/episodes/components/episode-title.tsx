// The episode's title at the top of its page. A title the worker only suggested is marked so, with
// Keep this title and Change title: nothing of the episode is posted until the subscriber does.
import type { EpisodeDetail } from '@domain/episode-page';
import { useState } from 'react';
import { z } from 'zod/mini';
import { Form, useZodForm } from '@/components/form';
import { FormField } from '@/components/form-field';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useRenameEpisode } from '../api/rename-episode';
import { reviewTexts as t } from '../texts';
import { EditActions } from './edit-actions';

const titleFormSchema = z.object({
  title: z.string().check(z.refine((value) => value.trim().length >= 1 && value.trim().length <= 200, t.titleRequired)),
});

function TitleForm({ episode, onDone }: { episode: EpisodeDetail; onDone: () => void }) {
  const rename = useRenameEpisode(episode.id);
  const form = useZodForm(titleFormSchema, { defaultValues: { title: episode.title } });
  return (
    <Form
      form={form}
      onSubmit={async ({ title }) => {
        await rename.mutateAsync(title.trim());
        onDone();
      }}
      failureTitle={t.titleFailedTitle}
      success={{ title: t.titleSavedTitle }}
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
    >
      <FormField label={t.newTitle} maxLength={200} error={form.formState.errors.title?.message} {...form.register('title')} />
      <EditActions save={t.saveTitle} saving={t.savingTitle} onCancel={onDone} />
    </Form>
  );
}

export function EpisodeTitle({ episode, subtitle }: { episode: EpisodeDetail; subtitle: string }) {
  const [editing, setEditing] = useState(false);
  const rename = useRenameEpisode(episode.id);
  const delivered = episode.processing?.status === 'delivered';
  const keep = () =>
    rename.mutate(episode.title, {
      onSuccess: () => notify.success(t.titleSavedTitle),
      onError: (error) => notify.error(t.titleFailedTitle, { description: errorMessage(error, t.titleFailedTitle) }),
    });
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-3xl font-bold break-words">{episode.title}</h1>
      <p className="text-base-content/70">{subtitle}</p>
      {episode.guests.length > 0 && <p className="break-words">{t.guests(episode.guests)}</p>}
      {!episode.titleConfirmed && delivered && !editing && (
        <div role="note" className="alert alert-warning flex flex-col items-start gap-2">
          <p>
            <span className="badge badge-neutral mr-2">{t.suggestedTitle}</span>
            {t.suggestedTitleHint}
          </p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn btn-sm btn-primary" onClick={keep} disabled={rename.isPending}>
              {t.keepTitle}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setEditing(true)}>
              {t.changeTitle}
            </button>
          </div>
        </div>
      )}
      {editing && <TitleForm episode={episode} onDone={() => setEditing(false)} />}
      {episode.titleConfirmed && delivered && !editing && (
        <button type="button" className="btn btn-sm btn-ghost self-start" onClick={() => setEditing(true)}>
          {t.changeTitle}
        </button>
      )}
    </div>
  );
}
