// /admin/episodes/resubmit: submission logs, object storage files and the resubmission form.
// Whether the visitor may use it is the server's decision: a failed logs call is Access Denied.
import { emptyResubmitForm, formFromLog, resubmitFormSchema } from '@domain/admin-resubmit';
import { useWatch } from 'react-hook-form';
import { ErrorAlert } from '@/components/alert';
import { useZodForm } from '@/components/form';
import { FullPageSpinner } from '@/components/spinner';
import { useEpisodeLogs } from '@/features/admin/api/get-episode-logs';
import { useObjectStorageFiles } from '@/features/admin/api/get-object-storage-files';
import { AdminNav } from '@/features/admin/components/admin-nav';
import { ObjectStorageFileList } from '@/features/admin/components/object-storage-file-list';
import { ResubmitFormCard } from '@/features/admin/components/resubmit-form';
import { SubmissionLogList } from '@/features/admin/components/submission-log-list';
import { texts } from '@/features/admin/texts';
import { useDeferredAnswer } from '@/lib/use-deferred-answer';

export default function ResubmitPage() {
  const logs = useDeferredAnswer(useEpisodeLogs());
  // Files are asked for only once the server has let the caller read the logs.
  const files = useObjectStorageFiles(logs.isSuccess);
  const form = useZodForm(resubmitFormSchema, { defaultValues: emptyResubmitForm });
  const [selectedLogId, selectedFiles] = useWatch({ control: form.control, name: ['originalLogId', 'objectStorageFiles'] });

  const toggleFile = (path: string) =>
    form.setValue(
      'objectStorageFiles',
      selectedFiles.includes(path) ? selectedFiles.filter((f) => f !== path) : [...selectedFiles, path],
    );

  return (
    <main className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8">
      <div>
        {/* The admin pages' tabs only for whom the server let in: not beside Access Denied. */}
        {logs.isSuccess && <AdminNav />}
        <h1 className="mt-3 text-3xl font-bold">{texts.title}</h1>
        <p className="mt-1">{texts.subtitle}</p>
      </div>
      {logs.isPending && <FullPageSpinner label={texts.loading} />}
      {logs.isError && <ErrorAlert title={texts.accessDeniedTitle} message={texts.accessDenied} />}
      {logs.isSuccess && (
        <div className="grid gap-6 lg:grid-cols-2">
          <div className="flex min-w-0 flex-col gap-6">
            <SubmissionLogList
              logs={logs.data.pages.flatMap((page) => page.items)}
              selectedId={selectedLogId}
              onSelect={(log) => form.reset(formFromLog(log))}
              hasMore={logs.hasNextPage}
              loadingMore={logs.isFetchingNextPage}
              onLoadMore={() => void logs.fetchNextPage()}
            />
            {files.isError && (
              <ErrorAlert title={`${texts.loadFailed}: ${texts.filesTitle}`} message={files.error.message} />
            )}
            {!files.isError && (
              <ObjectStorageFileList
                files={files.data?.pages.flatMap((page) => page.items) ?? []}
                loading={files.isPending}
                selected={selectedFiles}
                onToggle={toggleFile}
                hasMore={files.hasNextPage}
                loadingMore={files.isFetchingNextPage}
                onLoadMore={() => void files.fetchNextPage()}
              />
            )}
          </div>
          <div className="min-w-0">
            <ResubmitFormCard form={form} />
          </div>
        </div>
      )}
    </main>
  );
}
