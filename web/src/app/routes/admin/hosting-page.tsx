// /admin/hosting: the subscribers waiting for podcast hosting, with 'Mark hosting ready', and a
// form to start a subscriber's setup again. The server decides who may use it: a failed list is
// Access Denied, and every action is refused to anyone but an administrator (and audited).
import { hostingActionSchema, type HostingAction, type HostingSetup } from '@domain/admin-hosting';
import { useState } from 'react';
import { ErrorAlert } from '@/components/alert';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { FormField } from '@/components/form-field';
import { Panel } from '@/components/panel';
import { FullPageSpinner } from '@/components/spinner';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useHostingSetups } from '@/features/admin/api/get-hosting-setups';
import { useMarkHostingReady } from '@/features/admin/api/mark-hosting-ready';
import { useStartHostingSetup } from '@/features/admin/api/start-hosting-setup';
import { AdminNav } from '@/features/admin/components/admin-nav';
import { HostingSetupList } from '@/features/admin/components/hosting-setup-list';
import { hostingTexts as t, texts } from '@/features/admin/texts';

function StartSetupForm() {
  const start = useStartHostingSetup();
  const form = useZodForm(hostingActionSchema, { defaultValues: { email: '' } });
  const onSubmit = async (payload: HostingAction) => {
    const result = await start.mutateAsync(payload);
    notify.success(t.startedTitle, { description: result.message });
    form.reset({ email: '' });
  };
  return (
    <Panel titleId="start-hosting-title" title={t.startTitle}>
      <p className="text-sm">{t.startHint}</p>
      <Form form={form} onSubmit={onSubmit} failureTitle={t.failedTitle} failureAlert>
        <FormField label={t.email} type="email" autoComplete="off" error={form.formState.errors.email?.message} {...form.register('email')} />
        <SubmitButton label={t.start} pendingLabel={t.starting} className="btn btn-outline self-start" />
      </Form>
    </Panel>
  );
}

export default function HostingPage() {
  const setups = useHostingSetups();
  const markReady = useMarkHostingReady();
  const [marking, setMarking] = useState<string | null>(null);

  const onMarkReady = (setup: HostingSetup) => {
    setMarking(setup.email);
    markReady.mutate(
      { email: setup.email },
      {
        onSuccess: (result) => notify.success(t.readyTitle, { description: result.message }),
        onError: (error) => notify.error(t.failedTitle, { description: errorMessage(error, t.failed) }),
        onSettled: () => setMarking(null),
      },
    );
  };

  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8">
      <div className="flex flex-col gap-3">
        {/* The admin pages' tabs only for whom the server let in: not beside Access Denied. */}
        {setups.isSuccess && <AdminNav />}
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p>{t.subtitle}</p>
      </div>
      {setups.isPending && <FullPageSpinner label={texts.loading} />}
      {setups.isError && <ErrorAlert title={texts.accessDeniedTitle} message={texts.accessDenied} />}
      {setups.isSuccess && (
        <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
          <div className="min-w-0">
            <HostingSetupList
              setups={setups.data.pages.flatMap((page) => page.items)}
              marking={marking}
              onMarkReady={onMarkReady}
              hasMore={setups.hasNextPage}
              loadingMore={setups.isFetchingNextPage}
              onLoadMore={() => void setups.fetchNextPage()}
            />
          </div>
          <div className="min-w-0">
            <StartSetupForm />
          </div>
        </div>
      )}
    </main>
  );
}
