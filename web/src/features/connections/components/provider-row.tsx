// One provider: label, purpose, the badge and the button of its display state (spec section 4).
import type { ConnectionDisplayState } from '@domain/connection-status';
import { texts } from '../texts';

interface ProviderRowProps {
  label: string;
  purpose: string;
  state: ConnectionDisplayState;
  available: boolean;
  accountLabel: string | null;
  busy: boolean;
  onConnect: () => void;
  onDisconnect: () => void;
  onRefresh: () => void;
}

const badgeClass: Record<Exclude<ConnectionDisplayState, 'disconnected'>, string> = {
  connected: 'badge-success',
  expired: 'badge-warning',
  failed: 'badge-error',
};

export function ProviderRow({ label, purpose, state, available, accountLabel, busy, onConnect, onDisconnect, onRefresh }: ProviderRowProps) {
  const button = (() => {
    if (state === 'connected') return { text: texts.disconnect, onClick: onDisconnect, className: 'btn-outline' };
    if (state === 'expired') return { text: texts.refresh, onClick: onRefresh, className: 'btn-warning' };
    if (state === 'failed') return { text: texts.fix, onClick: onConnect, className: 'btn-error' };
    return { text: texts.connect, onClick: onConnect, className: 'btn-primary' };
  })();
  // Nothing to connect yet; what is already connected can still be managed.
  const comingSoon = !available && state === 'disconnected';
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 border-b border-base-300 py-3 last:border-b-0">
      <div className="min-w-0">
        <p className="flex items-center gap-2 font-semibold">
          {label}
          {state !== 'disconnected' && <span className={`badge ${badgeClass[state]}`}>{texts.badge[state]}</span>}
        </p>
        <p className="text-sm text-base-content/70">{purpose}</p>
        {accountLabel && state !== 'disconnected' && <p className="text-xs text-base-content/70">{accountLabel}</p>}
      </div>
      {comingSoon ? (
        <button type="button" className="btn btn-sm" disabled aria-label={texts.actionFor(texts.comingSoon, label)}>
          {texts.comingSoon}
        </button>
      ) : (
        <button
          type="button"
          className={`btn btn-sm ${button.className}`}
          onClick={button.onClick}
          disabled={busy}
          aria-label={texts.actionFor(button.text, label)}
        >
          {button.text}
        </button>
      )}
    </li>
  );
}
