// The Connect dialog of spec section 2: a notice that the browser goes to the provider, then
// Cancel or Connect ('Connecting...' while the authorization address is fetched).
import type { OAuthProviderId } from '@domain/connection-status';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useStartOAuth } from '../api/start-oauth';
import { texts } from '../texts';
import { Modal } from '@/components/modal';

interface ConnectDialogProps {
  provider: { id: OAuthProviderId; label: string } | null;
  onClose: () => void;
}

export function ConnectDialog({ provider, onClose }: ConnectDialogProps) {
  const start = useStartOAuth();
  // Stays pending while the browser leaves for the provider.
  const busy = start.isPending || start.isSuccess;
  const connect = () => {
    if (!provider) return;
    start.mutate(provider.id, {
      onError: (error) => notify.error(texts.connectionFailed, { description: errorMessage(error, texts.connectionFailedBody(provider.label)) }),
    });
  };
  return (
    <Modal open={provider !== null} title={provider ? texts.connectTitle(provider.label) : ''} onClose={onClose}>
      {provider && (
        <>
          <p className="py-4">{texts.redirectNotice(provider.label)}</p>
          <div className="modal-action">
            <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
              {texts.cancel}
            </button>
            <button type="button" className="btn btn-primary" onClick={connect} disabled={busy}>
              {busy ? texts.connecting : texts.connect}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
