// Editing the show notes: the summary, each chapter's title (their times stay: they are where the
// episode's sentences start) and the keywords. The show notes' file in Drive is written again.
import type { ShowNotes } from '@domain/episode-content';
import { useFieldArray } from 'react-hook-form';
import { z } from 'zod/mini';
import { Form, useZodForm } from '@/components/form';
import { FormField, TextAreaField } from '@/components/form-field';
import { useUpdateShowNotes } from '../api/update-show-notes';
import { reviewTexts as t } from '../texts';
import { EditActions } from './edit-actions';

const MAX_KEYWORDS = 20;
const keywordsOf = (value: string) => value.split(',').map((keyword) => keyword.trim()).filter(Boolean);

const notesFormSchema = z.object({
  summary: z.string().check(z.refine((value) => value.trim().length >= 1, t.textRequired)),
  chapters: z.array(z.object({ title: z.string().check(z.refine((value) => value.trim().length >= 1 && value.length <= 200, t.textRequired)) })),
  keywords: z.string().check(z.refine((value) => keywordsOf(value).length <= MAX_KEYWORDS, t.tooManyKeywords)),
});
type NotesForm = z.infer<typeof notesFormSchema>;

export default function ShowNotesForm({ episodeId, notes, onDone }: { episodeId: string; notes: ShowNotes; onDone: () => void }) {
  const update = useUpdateShowNotes(episodeId);
  const form = useZodForm(notesFormSchema, {
    defaultValues: { summary: notes.summary, chapters: notes.chapters.map((chapter) => ({ title: chapter.title })), keywords: notes.keywords.join(', ') },
  });
  const chapters = useFieldArray({ control: form.control, name: 'chapters' });
  const onSubmit = async (values: NotesForm) => {
    await update.mutateAsync({
      summary: values.summary.trim(),
      chapterTitles: values.chapters.map((chapter) => chapter.title.trim()),
      keywords: keywordsOf(values.keywords),
    });
    onDone();
  };
  return (
    <Form form={form} onSubmit={onSubmit} failureTitle={t.notesFailedTitle} failureAlert success={{ title: t.notesSavedTitle }}>
      <TextAreaField label={t.notesSummaryLabel} rows={5} error={form.formState.errors.summary?.message} {...form.register('summary')} />
      {chapters.fields.map((field, index) => (
        <FormField
          key={field.id}
          label={t.chapterLabel(notes.chapters[index].time)}
          maxLength={200}
          error={form.formState.errors.chapters?.[index]?.title?.message}
          {...form.register(`chapters.${index}.title`)}
        />
      ))}
      <FormField label={t.keywordsLabel} error={form.formState.errors.keywords?.message} {...form.register('keywords')} />
      <EditActions save={t.saveNotes} saving={t.savingNotes} onCancel={onDone} />
    </Form>
  );
}
