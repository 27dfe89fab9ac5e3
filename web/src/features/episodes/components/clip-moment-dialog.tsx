// A clip's moment as whole sentences of the transcript: its first and last sentence, chosen from
// the sentences with their times; from 5 to 90 seconds (SQL checks it again). The clip is then
// rendered again with its captions and replaces its file in Drive.
import type { EpisodeClip } from '@domain/episode-clips';
import { CLIP_MOMENT_SECONDS, type EpisodeTranscript } from '@domain/review';
import { z } from 'zod/mini';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { SelectField } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { useSetClipMoment } from '../api/set-clip-moment';
import { episodePageTexts, reviewTexts as t } from '../texts';

export default function ClipMomentDialog({ episodeId, clip, transcript, onClose }: { episodeId: string; clip: EpisodeClip; transcript: EpisodeTranscript; onClose: () => void }) {
  const move = useSetClipMoment(episodeId);
  const { sentences } = transcript;
  const schema = z
    .object({ first: z.string(), last: z.string() })
    .check(
      z.superRefine(({ first, last }, ctx) => {
        const [from, to] = [Number(first), Number(last)];
        if (to < from) {
          ctx.addIssue({ code: 'custom', message: t.lastBeforeFirst, path: ['last'], input: last });
          return;
        }
        const seconds = sentences[to].end - sentences[from].start;
        if (seconds < CLIP_MOMENT_SECONDS.min || seconds > CLIP_MOMENT_SECONDS.max) {
          ctx.addIssue({
            code: 'custom',
            message: t.momentLength(CLIP_MOMENT_SECONDS.min, CLIP_MOMENT_SECONDS.max, seconds),
            path: ['last'],
            input: last,
          });
        }
      }),
    );
  const form = useZodForm(schema, {
    defaultValues: { first: String(clip.firstSentence ?? 0), last: String(Math.max(0, (clip.endSentence ?? 1) - 1)) },
  });
  const options = sentences.map((sentence, index) => (
    <option key={index} value={index}>
      {t.sentenceOption(episodePageTexts.duration(sentence.start), sentence.text)}
    </option>
  ));
  return (
    <Modal open title={t.moveTitle} onClose={onClose} closeLabel={t.close} boxClassName="max-w-2xl">
      <p className="py-2">{t.moveIntro}</p>
      <Form
        form={form}
        onSubmit={async ({ first, last }) => {
          await move.mutateAsync({ clipId: clip.id, firstSentence: Number(first), endSentence: Number(last) + 1 });
          onClose();
        }}
        failureTitle={t.momentFailedTitle}
        failureAlert
        success={{ title: t.momentSavedTitle, description: t.momentSaved }}
      >
        <SelectField label={t.firstSentence} error={form.formState.errors.first?.message} {...form.register('first')}>
          {options}
        </SelectField>
        <SelectField label={t.lastSentence} error={form.formState.errors.last?.message} {...form.register('last')}>
          {options}
        </SelectField>
        <SubmitButton label={t.saveMoment} pendingLabel={t.savingMoment} />
      </Form>
    </Modal>
  );
}
