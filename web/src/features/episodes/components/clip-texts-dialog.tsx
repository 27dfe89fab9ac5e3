// A clip's title and each platform's text, with that platform's limit counted as the subscriber
// types (X counts its weighted length). A platform whose post is out keeps its text: its fields
// are read-only. SQL checks the same limits (private.update_clip_texts).
import { PLATFORM_TEXT_LIMITS, xLength, type EpisodeClip } from '@domain/episode-clips';
import type { ScheduledPost } from '@domain/episode-page';
import type { PostingProvider } from '@domain/connection-status';
import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { z } from 'zod/mini';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { LabelledField, validityProps } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { useUpdateClipTexts } from '../api/update-clip-texts';
import { reviewTexts as t } from '../texts';

/** Each field of the form: where it lives in the clip's texts, its label, its limit, how it counts. */
const FIELDS = [
  { name: 'title', label: t.clipTitleLabel, limit: PLATFORM_TEXT_LIMITS.title, required: true, platform: null, rows: 0 },
  { name: 'youtubeTitle', label: t.youtubeTitle, limit: PLATFORM_TEXT_LIMITS.youtubeTitle, required: true, platform: 'youtube', rows: 0 },
  { name: 'youtubeDescription', label: t.youtubeDescription, limit: PLATFORM_TEXT_LIMITS.youtubeDescription, required: false, platform: 'youtube', rows: 4 },
  { name: 'x', label: t.xText, limit: PLATFORM_TEXT_LIMITS.x, required: true, platform: 'x', rows: 3 },
  { name: 'linkedin', label: t.linkedinText, limit: PLATFORM_TEXT_LIMITS.linkedin, required: true, platform: 'linkedin', rows: 4 },
  { name: 'wordpressTitle', label: t.wordpressTitle, limit: PLATFORM_TEXT_LIMITS.wordpressTitle, required: true, platform: 'wordpress', rows: 0 },
  { name: 'wordpressContent', label: t.wordpressContent, limit: PLATFORM_TEXT_LIMITS.wordpressContent, required: false, platform: 'wordpress', rows: 4 },
] as const satisfies ReadonlyArray<{ name: string; label: string; limit: number; required: boolean; platform: PostingProvider | null; rows: number }>;

type FieldName = (typeof FIELDS)[number]['name'];
type TextsForm = Record<FieldName, string>;

const lengthOf = (name: FieldName, value: string) => (name === 'x' ? xLength(value) : [...value].length);

const textsFormSchema = z.object(
  Object.fromEntries(
    FIELDS.map(({ name, limit, required }) => [
      name,
      z.string().check(
        z.superRefine((value, ctx) => {
          if (required && !value.trim()) ctx.addIssue({ code: 'custom', message: t.textRequired, input: value });
          else if (lengthOf(name, value) > limit) ctx.addIssue({ code: 'custom', message: t.tooLong(limit), input: value });
        }),
      ),
    ]),
  ) as Record<FieldName, z.ZodMiniString>,
);

function TextField({ field, locked }: { field: (typeof FIELDS)[number]; locked: boolean }) {
  const id = useId();
  const counterId = `${id}-count`;
  const { register, formState, control } = useFormContext<TextsForm>();
  const value = useWatch({ control, name: field.name }) ?? '';
  const used = lengthOf(field.name, value);
  const error = formState.errors[field.name]?.message;
  const common = {
    id,
    readOnly: locked,
    ...validityProps(id, error, counterId),
    ...register(field.name),
  };
  return (
    <LabelledField id={id} label={field.label} error={error}>
      {field.rows > 0 ? (
        <textarea rows={field.rows} className={`textarea textarea-bordered w-full ${error ? 'textarea-error' : ''}`} {...common} />
      ) : (
        <input className={`input input-bordered w-full ${error ? 'input-error' : ''}`} {...common} />
      )}
      <p id={counterId} className={`mt-1 text-right text-xs ${used > field.limit ? 'text-red-700' : 'text-base-content/70'}`}>
        {locked ? t.alreadyOut : t.counter(used, field.limit)}
      </p>
    </LabelledField>
  );
}

export default function ClipTextsDialog({ episodeId, clip, posts, onClose }: { episodeId: string; clip: EpisodeClip; posts: ScheduledPost[]; onClose: () => void }) {
  const update = useUpdateClipTexts(episodeId);
  const out = new Set(posts.filter((post) => post.status === 'posted').map((post) => post.provider));
  const form = useZodForm(textsFormSchema, {
    defaultValues: {
      title: clip.title,
      youtubeTitle: clip.posts.youtube.title,
      youtubeDescription: clip.posts.youtube.description,
      x: clip.posts.x.text,
      linkedin: clip.posts.linkedin.text,
      wordpressTitle: clip.posts.wordpress.title,
      wordpressContent: clip.posts.wordpress.content,
    },
  });
  const onSubmit = async (values: TextsForm) => {
    await update.mutateAsync({
      clipId: clip.id,
      edit: {
        title: values.title.trim(),
        posts: {
          youtube: { title: values.youtubeTitle, description: values.youtubeDescription },
          x: { text: values.x },
          linkedin: { text: values.linkedin },
          wordpress: { title: values.wordpressTitle, content: values.wordpressContent },
        },
      },
    });
    onClose();
  };
  return (
    <Modal open title={t.editTextsTitle} onClose={onClose} closeLabel={t.close} boxClassName="max-w-2xl">
      <Form form={form} onSubmit={onSubmit} failureTitle={t.textsFailedTitle} failureAlert success={{ title: t.textsSavedTitle, description: t.textsSaved }}>
        <p className="text-sm text-base-content/70">{t.episodeLinkAdded}</p>
        {FIELDS.map((field) => (
          <TextField key={field.name} field={field} locked={field.platform !== null && out.has(field.platform)} />
        ))}
        <SubmitButton label={t.saveTexts} pendingLabel={t.savingTexts} />
      </Form>
    </Modal>
  );
}
