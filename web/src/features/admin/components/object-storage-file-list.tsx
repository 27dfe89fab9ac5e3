// The episodes bucket's files (path, name, size in MB, uploaded at); checking one adds it to the form.
import { formatSizeMb, type ObjectStorageFile } from '@domain/admin-resubmit';
import { formatTime } from '../format-time';
import { texts } from '../texts';

interface Props {
  files: ObjectStorageFile[];
  selected: readonly string[];
  onToggle: (path: string) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}

export function ObjectStorageFileList({ files, selected, onToggle, hasMore, loadingMore, onLoadMore }: Props) {
  return (
    <section aria-labelledby="object-storage-files-title" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-3">
        <h2 id="object-storage-files-title" className="card-title">
          {texts.filesTitle}
        </h2>
        {files.length === 0 ? (
          <p>{texts.noFiles}</p>
        ) : (
          <div className="max-h-96 overflow-auto" tabIndex={0} role="region" aria-label={texts.filesCaption}>
            <table className="table table-sm">
              <caption className="sr-only">{texts.filesCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{texts.fileColumns.select}</th>
                  <th scope="col">{texts.fileColumns.path}</th>
                  <th scope="col">{texts.fileColumns.name}</th>
                  <th scope="col">{texts.fileColumns.size}</th>
                  <th scope="col">{texts.fileColumns.uploaded}</th>
                </tr>
              </thead>
              <tbody>
                {files.map((file) => (
                  <tr key={file.path}>
                    <td>
                      <input
                        type="checkbox"
                        className="checkbox checkbox-sm"
                        aria-label={texts.selectFile(file.path)}
                        checked={selected.includes(file.path)}
                        onChange={() => onToggle(file.path)}
                      />
                    </td>
                    <td className="break-all">{file.path}</td>
                    <td className="break-all">{file.name}</td>
                    <td className="whitespace-nowrap">{formatSizeMb(file.size)}</td>
                    <td className="whitespace-nowrap">{formatTime(file.uploaded)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {hasMore && (
          <button
            type="button"
            className="btn btn-outline btn-sm self-start"
            disabled={loadingMore}
            onClick={onLoadMore}
          >
            {texts.loadMoreFiles}
          </button>
        )}
      </div>
    </section>
  );
}
