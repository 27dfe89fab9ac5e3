// The submission logs: a list that scrolls within a maximum height; choosing one fills the form.
import type { SubmissionLog } from '@domain/admin-resubmit';
import { ListState, LoadMoreButton, type Paging } from '@/components/list-state';
import { Panel } from '@/components/panel';
import { formatTime } from '../format-time';
import { texts } from '../texts';

// Spec section 4: submitted, failed and resubmitted have their own styles, others are outlined.
const statusStyles: Record<string, string> = {
  submitted: 'badge-info',
  failed: 'badge-error',
  resubmitted: 'badge-secondary',
};

interface Props extends Paging {
  logs: SubmissionLog[];
  selectedId: string | null;
  onSelect: (log: SubmissionLog) => void;
}

export function SubmissionLogList({ logs, selectedId, onSelect, ...paging }: Props) {
  return (
    <Panel titleId="submission-logs-title" title={texts.logsTitle}>
      <ListState status={logs.length === 0 ? 'empty' : 'ready'} texts={{ empty: texts.noLogs }}>
        <ul className="flex max-h-96 flex-col gap-2 overflow-y-auto pr-1" tabIndex={0} aria-label={texts.logsTitle}>
          {logs.map((log) => (
            <li key={log.id}>
              <button
                type="button"
                className={`w-full rounded-box border p-3 text-left hover:bg-base-200 ${selectedId === log.id ? 'border-primary bg-base-200' : 'border-base-300'}`}
                aria-pressed={selectedId === log.id}
                aria-label={texts.selectLog(log.userEmail, formatTime(log.submittedAt))}
                onClick={() => onSelect(log)}
              >
                <span className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium break-all">{log.userEmail}</span>
                  <span className={`badge ${statusStyles[log.status] ?? 'badge-outline'}`}>{log.status}</span>
                </span>
                <span className="mt-1 block text-sm">
                  {formatTime(log.submittedAt)} · {texts.files(log.objectStorageFiles.length)}
                  {log.originalLogId && ` · ${texts.resubmissionOf}`}
                </span>
                <span className="mt-1 block text-sm">
                  {texts.deliveryLabel}:{' '}
                  {log.delivery
                    ? `${texts.deliveryStates[log.delivery.state] ?? log.delivery.state} (${texts.attempts(log.delivery.attempts)})`
                    : texts.noDelivery}
                </span>
                <span
                  className={`mt-1 block text-sm break-all ${log.processing?.status === 'failed' ? 'text-red-700' : ''}`}
                >
                  {texts.processingLabel}: {log.processing ? texts.processing(log.processing) : texts.noProcessing}
                </span>
                {log.delivery?.lastError && (
                  <span className="mt-1 block text-sm break-all text-red-700">
                    {texts.lastError}: {log.delivery.lastStatus ? `${log.delivery.lastStatus} ` : ''}
                    {log.delivery.lastError}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </ListState>
      <LoadMoreButton {...paging} label={texts.loadMoreLogs} />
    </Panel>
  );
}
