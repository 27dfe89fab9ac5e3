// Which gating text applies: the stats' block reason, 'none' for a block without a reason
// (generic message), or null when submission is open (spec section 4).
import type { BlockReason, EpisodeStats } from '@domain/episodes';

type Gate = BlockReason | 'none' | null;

export function gateOf(stats: Pick<EpisodeStats, 'canSubmit' | 'blockReason'> | null | undefined): Gate {
  if (!stats) return null;
  if (stats.blockReason) return stats.blockReason;
  return stats.canSubmit ? null : 'none';
}
