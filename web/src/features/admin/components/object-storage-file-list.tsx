// The episodes bucket's files (path, name, size in MB, uploaded at); checking one adds it to the form.
import { formatSizeMb, type ObjectStorageFile } from '@domain/admin-resubmit';
import { ListState, LoadMoreButton, type Paging } from '@/components/list-state';
import { Panel } from '@/components/panel';
import { formatTime } from '../format-time';
import { texts } from '../texts';

interface Props extends Paging {
  files: ObjectStorageFile[];
  /** The first page is still on its way: the panel holds its place (the form under it stays put). */
  loading?: boolean;
  selected: readonly string[];
  onToggle: (path: string) => void;
}

export function ObjectStorageFileList({ files, loading = false, selected, onToggle, ...paging }: Props) {
  return (
    <Panel titleId="object-storage-files-title" title={texts.filesTitle}>
      <ListState
        status={loading ? 'loading' : files.length === 0 ? 'empty' : 'ready'}
        texts={{ loading: texts.loading, empty: texts.noFiles }}
      >
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
      </ListState>
      <LoadMoreButton {...paging} label={texts.loadMoreFiles} />
    </Panel>
  );
}
