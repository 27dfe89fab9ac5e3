// WordPress credentials (spec sections 2, 5 and 8): username and application password, both
// trimmed and required; the site comes from the profile's podcast website, or is asked for.
import { MISSING_WORDPRESS_CREDENTIALS, wordpressCredentialsSchema } from '@domain/wordpress-credentials';
import { useState, type FormEvent } from 'react';
import { z } from 'zod/mini';
import { FormField } from '@/components/form-field';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useConnectWordpress } from '../api/connect-wordpress';
import { usePodcastWebsite } from '../api/get-podcast-website';
import { texts } from '../texts';
import { Modal } from '@/components/modal';

export function WordpressDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [siteUrl, setSiteUrl] = useState('');
  const website = usePodcastWebsite(open);
  const connect = useConnectWordpress();
  const needsSite = website.isSuccess && website.data === null;

  const close = () => {
    setUsername('');
    setPassword('');
    setSiteUrl('');
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = z.safeParse(wordpressCredentialsSchema, { username, password, ...(needsSite ? { siteUrl } : {}) });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? MISSING_WORDPRESS_CREDENTIALS;
      notify.error(message === MISSING_WORDPRESS_CREDENTIALS ? texts.missingInformation : texts.wordpressConnectionFailed, { description: message });
      return;
    }
    connect.mutate(parsed.data, {
      onSuccess: () => {
        notify.success(texts.wordpressConnected, { description: texts.wordpressConnectedBody });
        close();
      },
      onError: (error) => notify.error(texts.wordpressConnectionFailed, { description: errorMessage(error, texts.wordpressConnectionFailedFallback) }),
    });
  };

  return (
    <Modal open={open} title={texts.wordpressTitle} onClose={close}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3 pt-4">
        <p className="text-sm">{texts.wordpressIntro}</p>
        {needsSite && (
          <>
            <p className="text-sm">{texts.wordpressSiteHint}</p>
            <FormField label={texts.wordpressSite} type="url" autoComplete="url" value={siteUrl} onChange={(e) => setSiteUrl(e.target.value)} />
          </>
        )}
        <FormField label={texts.wordpressUsername} autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
        <FormField
          label={texts.wordpressPassword}
          type="password"
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="modal-action">
          <button type="button" className="btn btn-ghost" onClick={close} disabled={connect.isPending}>
            {texts.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={connect.isPending}>
            {connect.isPending ? texts.connecting : texts.connect}
          </button>
        </div>
      </form>
    </Modal>
  );
}
