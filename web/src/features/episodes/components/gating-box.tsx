// The orange box on the Submit New Episode panel when submission is blocked.
import type { EpisodeStats } from '@domain/episodes';
import { isHighestPlan } from '@domain/plans';
import { timeAgo } from '@domain/relative-time';
import type { ReactNode } from 'react';
import { gatingTexts as t } from '../texts';
import { gateOf } from './gating';

/** `upgradeAction`: shown with the monthly limit message (the app passes billing's upgrade button). */
export function GatingBox({ stats, upgradeAction }: { stats: EpisodeStats; upgradeAction?: ReactNode }) {
  const gate = gateOf(stats);
  if (!gate) return null;
  const extra = stats.extraEpisodes ?? 0;
  const lines =
    gate === 'monthly_limit'
      ? [
          // The plan's own allowance, then what was bought on top of it for this month.
          t.box.monthlyLimit((stats.limit ?? 0) - extra),
          ...(extra > 0 ? [t.box.extraEpisodes(extra)] : []),
          isHighestPlan(stats.subscriptionTier) ? t.box.monthlyLimitHintHighestPlan : t.box.monthlyLimitHint,
        ]
      : gate === 'hosting_setup'
        ? [t.banner.hosting_setup, ...(stats.hostingSetupStartedAt ? [t.box.hostingStarted(timeAgo(new Date(stats.hostingSetupStartedAt)))] : [])]
        : gate === 'none'
          ? [t.banner.none]
          : [t.toast[gate]];
  return (
    <div role="status" className="rounded-box border border-orange-300 bg-orange-50 p-4 text-orange-900" data-testid="gating-box">
      <p className="font-semibold">{t.box.title}</p>
      {lines.map((line) => (
        <p key={line} className="text-sm">
          {line}
        </p>
      ))}
      {gate === 'monthly_limit' && upgradeAction && <div className="mt-2">{upgradeAction}</div>}
    </div>
  );
}
