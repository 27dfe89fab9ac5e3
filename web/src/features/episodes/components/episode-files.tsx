// The finished episode and its clips: each opens in Google Drive, and a preview (Drive's own
// player in a frame) loads only when asked for, so the page never loads a dozen players at once.
import type { EpisodeOutput } from '@domain/episode-page';
import { useState } from 'react';
import { Panel } from '@/components/panel';
import { episodePageTexts as t } from '../texts';

function OutputItem({ output }: { output: EpisodeOutput }) {
  const [previewing, setPreviewing] = useState(false);
  const portrait = output.height > output.width;
  return (
    <li className="flex flex-col gap-2 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 break-words">
          <span className="badge badge-outline mr-2">{t.fileKind[output.kind]}</span>
          <span className="font-medium">{output.name}</span>
          {(output.kind === 'episode' || output.kind === 'clip') && (
            <span className="ml-2 text-sm text-base-content/70">{t.duration(output.durationSeconds)}</span>
          )}
        </span>
        {output.driveUrl && output.previewUrl ? (
          <span className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-sm"
              aria-expanded={previewing}
              aria-label={previewing ? t.hidePreview(output.name) : t.showPreview(output.name)}
              onClick={() => setPreviewing((on) => !on)}
            >
              {previewing ? t.hidePreviewShort : t.previewShort}
            </button>
            <a className="btn btn-sm btn-outline" href={output.driveUrl} target="_blank" rel="noreferrer" aria-label={t.openInDrive(output.name)}>
              {t.openInDriveShort}
            </a>
          </span>
        ) : (
          <span className="text-sm text-base-content/70">{t.notInDriveYet}</span>
        )}
      </div>
      {previewing && output.previewUrl && (
        <iframe
          src={output.previewUrl}
          title={t.previewFrame(output.name)}
          className={`w-full rounded-box border border-base-300 ${portrait ? 'aspect-[9/16] max-w-xs' : 'aspect-video max-w-2xl'}`}
          allow="autoplay; fullscreen"
          loading="lazy"
        />
      )}
    </li>
  );
}

export function EpisodeFiles({ outputs }: { outputs: EpisodeOutput[] }) {
  return (
    <Panel titleId="episode-files-title" title={t.filesTitle}>
      {outputs.length === 0 ? (
        <p>{t.noFilesYet}</p>
      ) : (
        <>
          <ul className="flex flex-col divide-y divide-base-300">
            {outputs.map((output) => (
              <OutputItem key={output.name} output={output} />
            ))}
          </ul>
          <p className="text-sm text-base-content/70">{t.previewHint}</p>
        </>
      )}
    </Panel>
  );
}
