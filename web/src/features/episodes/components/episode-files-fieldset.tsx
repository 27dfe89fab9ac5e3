// The Submit New Episode dialog's files (spec sections 2 and 5): the drop area with its file
// input, the uploads a reload interrupted, each file's row with its progress, and the overall
// progress.
import { EPISODE_MIME_TYPE } from '@domain/episodes';
import { type DragEvent, useId, useState } from 'react';
import { episodeTexts as t } from '../texts';
import { formatTimeLeft } from '../upload/time-left';
import { type UploadItem } from '../upload/upload-queue';
import { type EpisodeUploads } from '../upload/use-episode-uploads';

function FileRow({ item, onRemove, onRetry }: { item: UploadItem; onRemove: () => void; onRetry: () => void }) {
  const percent = item.size === 0 ? 100 : Math.floor((item.bytesUploaded / item.size) * 100);
  const state = item.status === 'uploaded' ? t.uploaded : item.status === 'failed' ? t.failed : t.uploading;
  return (
    <li className="flex flex-col gap-1 py-2">
      <div className="flex items-center justify-between gap-2">
        <span className="truncate font-medium">{item.name}</span>
        <span className="shrink-0 text-sm text-base-content/70">
          {t.fileSize(item.size)} · {state} {item.status === 'uploading' ? `${percent}%` : ''}
        </span>
      </div>
      <progress
        className="progress progress-primary w-full"
        value={percent}
        max={100}
        aria-label={t.fileProgress(item.name)}
      />
      {item.status === 'uploading' && (item.resumed || typeof item.secondsLeft === 'number') && (
        <p className="flex flex-wrap gap-x-3 text-sm text-base-content/70">
          {item.resumed && <span className="font-medium text-base-content">{t.resuming}</span>}
          {typeof item.secondsLeft === 'number' && <span>{formatTimeLeft(item.secondsLeft)}</span>}
        </p>
      )}
      {item.error && <p className="text-sm text-red-700">{item.error}</p>}
      <div className="flex gap-2">
        {item.status === 'failed' && (
          <button type="button" className="btn btn-xs" onClick={onRetry}>
            {t.retryUpload(item.name)}
          </button>
        )}
        <button type="button" className="btn btn-ghost btn-xs" onClick={onRemove}>
          {item.status === 'uploaded' ? t.removeFile(item.name) : t.cancelUpload(item.name)}
        </button>
      </div>
    </li>
  );
}

/** Files dragged over the area highlight it, and dropping adds them as choosing does. */
function FileDropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const fileInputId = useId();
  const [dragging, setDragging] = useState(false);
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    onFiles(Array.from(event.dataTransfer.files));
  };
  // The drop area is for pointers; the file input inside it is the keyboard's way.
  return (
    <div
      data-testid="episode-drop-zone"
      className={`flex flex-col gap-2 rounded-box border-2 border-dashed p-3 ${dragging ? 'border-primary bg-primary/10' : 'border-base-300'}`}
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        // Moving onto a child of the area is not leaving it.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <p className="text-sm" aria-live="polite">
        {dragging ? t.dropNow : t.dropZone}
      </p>
      <label htmlFor={fileInputId} className="text-sm font-medium">
        {t.chooseFiles}
      </label>
      <input
        id={fileInputId}
        type="file"
        accept={EPISODE_MIME_TYPE}
        multiple
        className="file-input file-input-bordered w-full"
        aria-describedby={`${fileInputId}-hint`}
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      <p id={`${fileInputId}-hint`} className="text-sm text-base-content/70">
        {t.uploadHint}
      </p>
    </div>
  );
}

/** The unfinished uploads a reload left, until they are chosen again or dismissed. */
function InterruptedUploads({ entries, onDismiss }: { entries: EpisodeUploads['interrupted']; onDismiss: () => void }) {
  return (
    <div className="rounded-box bg-base-200 p-3 text-sm">
      <div className="flex items-start justify-between gap-2">
        <p className="font-semibold">{t.interruptedTitle}</p>
        <button type="button" className="btn btn-ghost btn-xs" onClick={onDismiss}>
          {t.dismissInterrupted}
        </button>
      </div>
      <p>{t.interruptedHint}</p>
      <ul className="list-inside list-disc">
        {entries.map((entry) => (
          <li key={`${entry.name}-${entry.size}`}>
            {entry.name} ({t.fileSize(entry.size)})
          </li>
        ))}
      </ul>
    </div>
  );
}

function UploadList({ uploads }: { uploads: EpisodeUploads }) {
  return (
    <>
      <ul className="divide-y divide-base-300">
        {uploads.items.map((item) => (
          <FileRow key={item.id} item={item} onRemove={() => void uploads.remove(item.id)} onRetry={() => uploads.retry(item.id)} />
        ))}
      </ul>
      <label className="flex flex-col gap-1 text-sm">
        <span>
          {t.overallProgress}: {uploads.overall}%
        </span>
        <progress className="progress progress-secondary w-full" value={uploads.overall} max={100} aria-label={t.overallProgress} />
      </label>
    </>
  );
}

export function EpisodeFilesFieldset({ uploads }: { uploads: EpisodeUploads }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="font-semibold">{t.filesLegend}</legend>
      <FileDropZone onFiles={uploads.addFiles} />
      {uploads.problem && (
        <p role="alert" className="text-sm text-red-700">
          {uploads.problem}
        </p>
      )}
      {uploads.interrupted.length > 0 && <InterruptedUploads entries={uploads.interrupted} onDismiss={uploads.dismissInterrupted} />}
      {uploads.items.length > 0 && <UploadList uploads={uploads} />}
    </fieldset>
  );
}
