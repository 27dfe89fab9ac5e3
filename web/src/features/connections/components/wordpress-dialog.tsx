// WordPress credentials (spec sections 2, 5 and 8): username and application password, both
// trimmed and required; the site comes from the profile's podcast website (the profile the
// dashboard holds, lib/profile-record.ts), or is asked for when the profile has none.
// A refused value is told in a toast (the fields show no message of their own).
import { MISSING_WORDPRESS_CREDENTIALS, wordpressCredentialsSchema, type WordpressCredentials } from '@domain/wordpress-credentials';
import type { FieldErrors } from 'react-hook-form';
import { Form, useZodForm } from '@/components/form';
import { FormField } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { errorMessage } from '@/lib/api-client';
import { useProfileRecord } from '@/lib/profile-record';
import { notify } from '@/lib/toast';
import { useConnectWordpress } from '../api/connect-wordpress';
import { texts } from '../texts';

const emptyCredentials = { username: '', password: '', siteUrl: '' };

export default function WordpressDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const form = useZodForm(wordpressCredentialsSchema, { defaultValues: emptyCredentials });
  const profile = useProfileRecord();
  const connect = useConnectWordpress();
  const needsSite = profile.isSuccess && !profile.data?.podcastWebsite?.trim();

  const close = () => {
    form.reset(emptyCredentials);
    onClose();
  };

  const onSubmit = async ({ siteUrl, ...credentials }: WordpressCredentials) => {
    await connect.mutateAsync(needsSite ? { ...credentials, siteUrl } : credentials);
    close();
  };

  // The first refusal in the schema's order, as the dialog has always told it.
  const onInvalid = (errors: FieldErrors<WordpressCredentials>) => {
    const message = [errors.username, errors.password, errors.siteUrl].find(Boolean)?.message ?? MISSING_WORDPRESS_CREDENTIALS;
    notify.error(message === MISSING_WORDPRESS_CREDENTIALS ? texts.missingInformation : texts.wordpressConnectionFailed, { description: message });
  };

  return (
    <Modal open={open} title={texts.wordpressTitle} onClose={close}>
      <Form
        form={form}
        onSubmit={onSubmit}
        onInvalid={onInvalid}
        failureTitle={texts.wordpressConnectionFailed}
        failureDescription={(error) => errorMessage(error, texts.wordpressConnectionFailedFallback)}
        success={{ title: texts.wordpressConnected, description: texts.wordpressConnectedBody }}
        className="flex flex-col gap-3 pt-4"
      >
        <p className="text-sm">{texts.wordpressIntro}</p>
        {needsSite && (
          <>
            <p className="text-sm">{texts.wordpressSiteHint}</p>
            <FormField label={texts.wordpressSite} type="url" autoComplete="url" {...form.register('siteUrl')} />
          </>
        )}
        <FormField label={texts.wordpressUsername} autoComplete="username" {...form.register('username')} />
        <FormField label={texts.wordpressPassword} type="password" autoComplete="off" {...form.register('password')} />
        <div className="modal-action">
          <button type="button" className="btn btn-ghost" onClick={close} disabled={connect.isPending}>
            {texts.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={connect.isPending}>
            {connect.isPending ? texts.connecting : texts.connect}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
