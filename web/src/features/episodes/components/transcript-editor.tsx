// The transcript editor: the episode's sentences with their times, the words the recognition was
// unsure of underlined. A sentence opens as one field per word (each word keeps its time, so the
// captions stay in step); corrections collect until saved. On save the transcript, captions and
// notes files are written again and only the clips holding a corrected word are rendered again.
import type { EpisodeTranscript, WordCorrection } from '@domain/review';
import { LOW_CONFIDENCE } from '@domain/review';
import { useState } from 'react';
import { FormField } from '@/components/form-field';
import { Panel } from '@/components/panel';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useSaveTranscript } from '../api/save-transcript';
import { episodePageTexts, reviewTexts as t } from '../texts';

const MAX_WORD_LENGTH = 100;
const clock = (seconds: number) => episodePageTexts.duration(seconds);

interface SentenceProps {
  transcript: EpisodeTranscript;
  index: number;
  corrections: Map<number, string>;
  editing: boolean;
  editable: boolean;
  onEdit: () => void;
  onDone: () => void;
  onCorrect: (wordIndex: number, text: string) => void;
}

function SentenceWords({ transcript, index, corrections }: Pick<SentenceProps, 'transcript' | 'index' | 'corrections'>) {
  const sentence = transcript.sentences[index];
  const words = transcript.words.slice(sentence.firstWord, sentence.endWord);
  return (
    <span className="break-words">
      {words.map((word, i) => {
        const at = sentence.firstWord + i;
        const corrected = corrections.get(at);
        const unsure = corrected === undefined && word.confidence !== undefined && word.confidence < LOW_CONFIDENCE;
        return (
          <span key={at}>
            {i > 0 && ' '}
            {corrected !== undefined ? (
              <mark className="rounded bg-success/30 px-0.5">{corrected}</mark>
            ) : unsure ? (
              <span className="underline decoration-warning decoration-wavy underline-offset-4" title={t.unsure}>
                {word.text}
              </span>
            ) : (
              word.text
            )}
          </span>
        );
      })}
    </span>
  );
}

function Sentence(props: SentenceProps) {
  const { transcript, index, corrections, editing, editable, onEdit, onDone, onCorrect } = props;
  const sentence = transcript.sentences[index];
  const time = clock(sentence.start);
  const words = transcript.words.slice(sentence.firstWord, sentence.endWord);
  return (
    <li className="flex flex-col gap-2 py-2">
      <div className="flex items-start gap-3">
        <span className="font-mono text-sm text-base-content/70">{time}</span>
        <SentenceWords transcript={transcript} index={index} corrections={corrections} />
        {editable && !editing && (
          <button type="button" className="btn btn-ghost btn-xs ml-auto" aria-label={t.editSentence(time)} onClick={onEdit}>
            {t.edit}
          </button>
        )}
      </div>
      {editing && (
        <div className="flex flex-col gap-2 rounded-box border border-base-300 p-3">
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {words.map((word, i) => {
              const at = sentence.firstWord + i;
              const value = corrections.get(at) ?? word.text;
              const blank = value.trim().length === 0 || value.length > MAX_WORD_LENGTH;
              return (
                <FormField
                  key={at}
                  label={t.wordLabel(i + 1, words.length, time)}
                  value={value}
                  maxLength={MAX_WORD_LENGTH}
                  error={blank ? t.wordRequired : undefined}
                  onChange={(event) => onCorrect(at, event.target.value)}
                />
              );
            })}
          </div>
          <button type="button" className="btn btn-sm self-start" onClick={onDone}>
            {t.doneSentence}
          </button>
        </div>
      )}
    </li>
  );
}

export function TranscriptEditor({ episodeId, transcript, editable }: { episodeId: string; transcript: EpisodeTranscript; editable: boolean }) {
  const [corrections, setCorrections] = useState<Map<number, string>>(new Map());
  const [editing, setEditing] = useState<number | null>(null);
  const save = useSaveTranscript(episodeId);
  const correct = (wordIndex: number, text: string) =>
    setCorrections((current) => {
      const next = new Map(current);
      // Back to what was recognised: no longer a correction.
      if (text === transcript.words[wordIndex].text) next.delete(wordIndex);
      else next.set(wordIndex, text);
      return next;
    });
  const words: WordCorrection[] = [...corrections].map(([index, text]) => ({ index, text: text.trim() }));
  const valid = words.every((word) => word.text.length >= 1 && word.text.length <= MAX_WORD_LENGTH);
  // Awaited rather than mutate's callbacks: the saved version remounts this editor (its key), and
  // a remounted caller's callbacks are never called.
  const onSave = async () => {
    try {
      const { clipIds } = await save.mutateAsync({ version: transcript.version, words });
      notify.success(t.transcriptSavedTitle, { description: t.transcriptSaved(clipIds.length) });
      setCorrections(new Map());
      setEditing(null);
    } catch (error) {
      notify.error(t.transcriptFailedTitle, { description: errorMessage(error, t.transcriptFailedTitle) });
    }
  };
  return (
    <Panel titleId="transcript-title" title={t.transcriptTitle}>
      <p className="text-sm text-base-content/70">{t.transcriptIntro}</p>
      {/* Focusable: a keyboard scrolls it even when it holds no button (nothing to edit). */}
      <ol tabIndex={0} className="flex max-h-[32rem] flex-col divide-y divide-base-300 overflow-y-auto" aria-label={t.transcriptTitle}>
        {transcript.sentences.map((_, index) => (
          <Sentence
            key={index}
            transcript={transcript}
            index={index}
            corrections={corrections}
            editing={editing === index}
            editable={editable}
            onEdit={() => setEditing(index)}
            onDone={() => setEditing(null)}
            onCorrect={correct}
          />
        ))}
      </ol>
      {corrections.size > 0 && (
        <div className="sticky bottom-0 flex flex-col gap-2 rounded-box bg-base-200 p-3 sm:flex-row sm:items-center sm:justify-between">
          <p role="status">{t.corrections(corrections.size)}</p>
          <div className="flex gap-2">
            <button type="button" className="btn btn-primary btn-sm" onClick={() => void onSave()} disabled={!valid || save.isPending}>
              {save.isPending ? t.savingTranscript : t.saveTranscript}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setCorrections(new Map())} disabled={save.isPending}>
              {t.discardCorrections}
            </button>
          </div>
        </div>
      )}
    </Panel>
  );
}
