// The subscribers waiting for podcast hosting, longest first, each with when setup started and a
// 'Mark hosting ready' button.
import type { HostingSetup } from '@domain/admin-hosting';
import { timeAgo } from '@domain/relative-time';
import { ListState, LoadMoreButton, type Paging } from '@/components/list-state';
import { Panel } from '@/components/panel';
import { formatTime } from '../format-time';
import { hostingTexts as t } from '../texts';

interface Props extends Paging {
  setups: HostingSetup[];
  /** The e-mail being marked ready now, if any. */
  marking: string | null;
  onMarkReady: (setup: HostingSetup) => void;
}

export function HostingSetupList({ setups, marking, onMarkReady, ...paging }: Props) {
  return (
    <Panel titleId="hosting-setups-title" title={t.listTitle}>
      <ListState status={setups.length === 0 ? 'empty' : 'ready'} texts={{ empty: t.empty }}>
        <ul className="flex flex-col divide-y divide-base-300 rounded-box border border-base-300" aria-label={t.caption}>
          {setups.map((setup) => {
            const name = [setup.firstName, setup.lastName].filter(Boolean).join(' ');
            return (
              <li key={setup.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium break-all">{setup.email}</p>
                  <p className="text-sm">
                    {name && `${name} · `}
                    {t.plan}: {setup.subscriptionTier ?? t.noPlan}
                  </p>
                  <p className="text-sm">
                    {t.startedLabel}: {t.started(timeAgo(new Date(setup.hostingSetupStartedAt)), formatTime(setup.hostingSetupStartedAt))}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-primary btn-sm shrink-0 self-start sm:self-center"
                  aria-label={t.markReadyFor(setup.email)}
                  disabled={marking !== null}
                  onClick={() => onMarkReady(setup)}
                >
                  {marking === setup.email ? t.marking : t.markReady}
                </button>
              </li>
            );
          })}
        </ul>
        <LoadMoreButton {...paging} label={t.loadMore} />
      </ListState>
    </Panel>
  );
}
