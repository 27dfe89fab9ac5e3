// One upload slot: a file chooser checked for type and shape on choice, or the stored file with
// 'Replace existing file', and the upload's progress while saving. Replacing deletes nothing: the
// stored file stays until the form saves the new one (the server removes the old file only then),
// and 'Keep current file' goes back to it.
import { brandAssetRules, fileShapeProblem, fileSizeProblem, fileTypeProblem, type AttachmentState, type BrandAssetSlot } from '@domain/onboarding';
import { useId, useState } from 'react';
import { LabelledField, validityProps } from '@/components/form-field';
import { imageSize, videoSize } from '@/lib/media-size';
import { texts } from '../texts';

/** The first problem with `file` for `slot` (type, size, then shape), or null. */
async function brandAssetProblem(slot: BrandAssetSlot, file: File): Promise<string | null> {
  const rule = brandAssetRules[slot];
  const typeProblem = fileTypeProblem(slot, file) ?? fileSizeProblem(slot, file.size);
  if (typeProblem) return typeProblem;
  const size = rule.mimeType === 'video/mp4' ? await videoSize(file) : await imageSize(file);
  if (!size) return rule.typeMessage;
  return fileShapeProblem(slot, size);
}

interface FileSlotProps {
  slot: BrandAssetSlot;
  label: string;
  stored: AttachmentState | undefined;
  chosen: File | null;
  error?: string;
  progress?: number;
  onChoose: (file: File | null, problem: string | null) => void;
}

export function FileSlot({ slot, label, stored, chosen, error, progress, onChoose }: FileSlotProps) {
  const id = useId();
  // The stored file being replaced: once a save stores another, the slot shows that one again.
  const [replacing, setReplacing] = useState<string | null>(null);
  const t = texts.form;
  const storedName = stored?.exists ? (stored.filename ?? texts.card.provided) : null;
  const isReplacing = storedName !== null && replacing === storedName;

  const choose = async (file: File | undefined, input: HTMLInputElement) => {
    if (!file) return onChoose(null, null);
    const problem = await brandAssetProblem(slot, file);
    if (problem) input.value = '';
    onChoose(problem ? null : file, problem);
  };

  const keep = () => {
    setReplacing(null);
    onChoose(null, null);
  };

  if (storedName !== null && !chosen && !isReplacing) {
    return (
      <div className="form-control w-full" role="group" aria-labelledby={`${id}-label`}>
        <span id={`${id}-label`} className="label pb-1 font-medium">
          {label}
        </span>
        <div className="flex flex-wrap items-center gap-3 rounded-box border border-base-300 p-3">
          <span className="text-sm">{t.currentFile(storedName)}</span>
          <button type="button" className="btn btn-sm btn-outline" onClick={() => setReplacing(storedName)}>
            {t.replaceFile}
          </button>
        </div>
      </div>
    );
  }

  return (
    <LabelledField id={id} label={label} error={error}>
      <input
        id={id}
        type="file"
        accept={brandAssetRules[slot].accept}
        className={`file-input file-input-bordered w-full ${error ? 'file-input-error' : ''}`}
        {...validityProps(id, error, `${id}-hint`)}
        onChange={(event) => void choose(event.target.files?.[0], event.target)}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-base-content/70">
        {t.fileHints[slot]}
      </p>
      {storedName !== null && (
        <div className="mt-1 flex flex-wrap items-center gap-2 text-sm">
          <span>{t.keptUntilSaved(storedName)}</span>
          <button type="button" className="btn btn-xs btn-ghost" onClick={keep}>
            {t.keepCurrentFile}
          </button>
        </div>
      )}
      {progress !== undefined && (
        <progress className="progress progress-primary mt-2 w-full" value={progress} max={100} aria-label={t.uploadProgress(label.replace(/\s*\*$/, ''))} />
      )}
    </LabelledField>
  );
}
