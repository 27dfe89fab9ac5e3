// The plan change Stripe has scheduled for the end of the period paid for (a lower plan waits
// until then): the caller's own subscription row, as the webhook keeps it, read through RLS.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { database } from '@/lib/supabase';

export interface ScheduledPlanChange {
  tier: string;
  /** When the new plan starts (ISO). */
  at: string;
}

async function getScheduledPlanChange(userId: string): Promise<ScheduledPlanChange | null> {
  const { data, error } = await (await database())
    .from('subscriptions')
    .select('scheduled_tier, scheduled_change_at')
    // Administrators read every row: ask for the caller's own.
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw new Error(error.message);
  return data?.scheduled_tier && data.scheduled_change_at ? { tier: data.scheduled_tier, at: data.scheduled_change_at } : null;
}

export const scheduledPlanChangeQuery = (userId: string) =>
  queryOptions({ queryKey: queryKeys.scheduledPlanChange, queryFn: () => getScheduledPlanChange(userId) });

export function useScheduledPlanChange(userId: string | undefined) {
  return useQuery({ ...scheduledPlanChangeQuery(userId ?? ''), enabled: userId !== undefined });
}
