// The dashboard's Social Media Connections panel (spec sections 2, 4 and 8): the eight
// providers in order with their state, the summary line, and the connect, disconnect and
// token-check actions with the spec's toasts.
import {
  connectionDisplayState,
  isOAuthProviderId,
  PROVIDERS,
  providerLabel,
  summarizeConnections,
  type OAuthProviderId,
  type ProviderId,
  type TokenCheckResult,
} from '@domain/connection-status';
import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListState, listStatus } from '@/components/list-state';
import { Panel } from '@/components/panel';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { useCheckTokens } from '../api/check-tokens';
import { useConnections } from '../api/get-connections';
import { useDisconnect } from '../api/disconnect-connection';
import { useConnectionOutcome } from '../hooks/use-connection-outcome';
import { texts } from '../texts';
import { ConnectDialog } from './connect-dialog';
import { ProviderRow } from './provider-row';

// Its own chunk (with the form library), loaded as the panel renders, not with the dashboard.
const WordpressDialog = lazy(() => import('./wordpress-dialog'));

/** Spec section 9: the reconnect toast follows the token check after 2 s. */
const RECONNECT_TOAST_DELAY_MS = 2000;

function announceTokenCheck(result: TokenCheckResult): void {
  const working = result.validated.length + result.refreshed.length;
  const attention = result.failed.length + result.needsReauth.length;
  const show = attention > 0 ? notify.error : notify.success;
  show(texts.tokenCheckComplete, { description: texts.tokenCheckBody(working, attention) });
  if (result.needsReauth.length > 0) {
    const providers = result.needsReauth.map((entry) => providerLabel(entry.provider)).join(', ');
    setTimeout(
      () => notify.error(texts.reconnectionNeeded, { description: texts.reconnectionNeededBody(providers) }),
      RECONNECT_TOAST_DELAY_MS,
    );
  }
}

/** `episodesInProgress`: the titles of the episodes being processed, which need Google Drive to be delivered. */
export function ConnectionsPanel({ episodesInProgress = [] }: { episodesInProgress?: string[] }) {
  useConnectionOutcome();
  const connections = useConnections();
  const disconnect = useDisconnect();
  const checkTokens = useCheckTokens();
  const [connecting, setConnecting] = useState<{ id: OAuthProviderId; label: string } | null>(null);
  // The WordPress dialog (and react-hook-form with it) loads when first opened, not with the
  // dashboard, and then stays mounted, so closing it is the dialog's own.
  const [wordpress, setWordpress] = useState<'unopened' | 'open' | 'closed'>('unopened');
  // Disconnecting asks first (issue 26, item 7): it cannot be undone without connecting again.
  const [confirming, setConfirming] = useState<{ id: ProviderId; label: string } | null>(null);
  const now = new Date();

  const entries = PROVIDERS.map((provider) => {
    const entry = connections.data?.find((e) => e.provider === provider.id) ?? null;
    return { ...provider, entry, state: connectionDisplayState(provider.id, entry, now) };
  });
  const summary = summarizeConnections(entries.map((e) => e.state));
  const summaryLine =
    summary.total === 0
      ? texts.noneConnected
      : summary.needAttention > 0
        ? texts.someNeedAttention(summary.working, summary.total, summary.needAttention)
        : texts.allWorking(summary.total);

  const openConnect = (id: ProviderId, label: string) => {
    if (isOAuthProviderId(id)) setConnecting({ id, label });
    else setWordpress('open');
  };

  const removeConnection = (id: ProviderId, label: string) =>
    disconnect.mutate(id, {
      onSettled: () => setConfirming(null),
      onSuccess: () =>
        id === 'wordpress'
          ? notify.success(texts.wordpressDisconnected, { description: texts.wordpressDisconnectedBody })
          : notify.success(texts.disconnected, { description: texts.disconnectedBody(label) }),
      onError: (error) =>
        id === 'wordpress'
          ? notify.error(texts.wordpressDisconnectFailed, {
              description: errorMessage(error, texts.wordpressDisconnectFailedFallback),
            })
          : notify.error(texts.disconnectFailed, {
              description: texts.disconnectFailedBody(label, errorMessage(error, '')),
            }),
    });

  const runTokenCheck = () =>
    checkTokens.mutate(undefined, {
      onSuccess: announceTokenCheck,
      onError: (error) =>
        notify.error(texts.tokenRefreshFailed, { description: errorMessage(error, texts.tokenRefreshFailedFallback) }),
    });

  return (
    <Panel titleId="connections-title" title={texts.title} className="border border-base-300 bg-base-100 shadow-sm">
      <p className="text-sm text-base-content/70">{texts.intro}</p>
      <ListState status={listStatus(connections)} texts={{ loading: texts.loading, failed: texts.loadFailed }}>
        <p className="font-medium" aria-live="polite">
          {summaryLine}
        </p>
        <ul aria-label={texts.title}>
          {entries.map(({ id, label, purpose, entry, state }) => (
            <ProviderRow
              key={id}
              label={label}
              purpose={purpose}
              state={state}
              available={entry?.available ?? false}
              accountLabel={entry?.accountLabel ?? null}
              busy={(disconnect.isPending && disconnect.variables === id) || checkTokens.isPending}
              onConnect={() => openConnect(id, label)}
              onDisconnect={() => setConfirming({ id, label })}
              onRefresh={runTokenCheck}
            />
          ))}
        </ul>
        {entries.some((e) => !(e.entry?.available ?? false)) && (
          <p className="text-sm text-base-content/70">{texts.comingSoonNote}</p>
        )}
      </ListState>
      <p className="text-xs text-base-content/70">{texts.tokensNote}</p>
      <ConnectDialog provider={connecting} onClose={() => setConnecting(null)} />
      {wordpress !== 'unopened' && (
        <Suspense fallback={null}>
          <WordpressDialog open={wordpress === 'open'} onClose={() => setWordpress('closed')} />
        </Suspense>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={texts.confirmDisconnectTitle(confirming?.label ?? '')}
        message={texts.confirmDisconnect(confirming?.label ?? '', confirming?.id === 'google' ? episodesInProgress : [])}
        confirmLabel={texts.disconnect}
        cancelLabel={texts.keepConnected}
        onConfirm={() => confirming && removeConnection(confirming.id, confirming.label)}
        onClose={() => setConfirming(null)}
        pending={disconnect.isPending}
      />
    </Panel>
  );
}
