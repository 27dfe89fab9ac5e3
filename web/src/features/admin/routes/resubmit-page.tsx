// /admin/episodes/resubmit: submission logs, object storage files and the resubmission form.
// Whether the visitor may use it is the server's decision: a failed logs call is Access Denied.
import {
  emptyResubmitForm,
  formFromLog,
  missingForResubmit,
  resubmitPayloadOf,
  type ResubmitForm,
} from '@domain/admin-resubmit';
import { useState } from 'react';
import { ErrorAlert } from '@/components/alert';
import { FullPageSpinner } from '@/components/spinner';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useEpisodeLogs } from '../api/get-episode-logs';
import { useObjectStorageFiles } from '../api/get-object-storage-files';
import { useResubmitEpisode } from '../api/resubmit-episode';
import { AdminNav } from '../components/admin-nav';
import { ObjectStorageFileList } from '../components/object-storage-file-list';
import { ResubmitFormCard } from '../components/resubmit-form';
import { SubmissionLogList } from '../components/submission-log-list';
import { texts } from '../texts';

export default function ResubmitPage() {
  const logs = useEpisodeLogs();
  // Files are asked for only once the server has let the caller read the logs.
  const files = useObjectStorageFiles(logs.isSuccess);
  const resubmit = useResubmitEpisode();
  const [form, setForm] = useState<ResubmitForm>(emptyResubmitForm);

  const submit = () => {
    const [missing] = missingForResubmit(form);
    if (missing) {
      notify.error(missing.title, { description: missing.message });
      return;
    }
    resubmit.mutate(resubmitPayloadOf(form), {
      onSuccess: (result) => {
        notify.success(texts.successTitle, { description: result.message });
        setForm(emptyResubmitForm);
      },
      onError: (error) => notify.error(texts.failedTitle, { description: errorMessage(error, texts.failed) }),
    });
  };

  const toggleFile = (path: string) =>
    setForm((current) => ({
      ...current,
      objectStorageFiles: current.objectStorageFiles.includes(path)
        ? current.objectStorageFiles.filter((f) => f !== path)
        : [...current.objectStorageFiles, path],
    }));

  return (
    <main className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8">
      <div>
        <AdminNav />
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
              selectedId={form.originalLogId}
              onSelect={(log) => setForm(formFromLog(log))}
              hasMore={logs.hasNextPage}
              loadingMore={logs.isFetchingNextPage}
              onLoadMore={() => void logs.fetchNextPage()}
            />
            {files.isError && (
              <ErrorAlert title={`${texts.loadFailed}: ${texts.filesTitle}`} message={files.error.message} />
            )}
            {files.isSuccess && (
              <ObjectStorageFileList
                files={files.data.pages.flatMap((page) => page.items)}
                selected={form.objectStorageFiles}
                onToggle={toggleFile}
                hasMore={files.hasNextPage}
                loadingMore={files.isFetchingNextPage}
                onLoadMore={() => void files.fetchNextPage()}
              />
            )}
          </div>
          <div className="min-w-0">
            <ResubmitFormCard
              form={form}
              onChange={setForm}
              onSubmit={submit}
              onClear={() => setForm(emptyResubmitForm)}
              submitting={resubmit.isPending}
            />
          </div>
        </div>
      )}
    </main>
  );
}
