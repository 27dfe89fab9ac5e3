// Back on the dashboard from Checkout after buying one more episode (`?extra_episode=purchased`,
// issue 43, item 4): Stripe's webhook may land after the redirect, so ask for the episode stats up
// to 10 times a second apart until the monthly limit no longer blocks, say so, and drop the marker.
import { EXTRA_EPISODE_RETURN_PARAM } from '@domain/plans';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { episodeStatsQuery } from '@/features/episodes/api/get-episode-stats';
import { texts as billingTexts } from '@/features/billing/texts';
import { wait } from '@/lib/delays';
import { notify } from '@/lib/toast';

const POLLS = 10;

export function useExtraEpisodeReturn(): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const started = useRef(false);
  const returned = new URLSearchParams(location.search).has(EXTRA_EPISODE_RETURN_PARAM);

  useEffect(() => {
    if (!returned || started.current) return;
    started.current = true;
    void (async () => {
      let open = false;
      for (let i = 0; i < POLLS && !open; i++) {
        if (i > 0) await wait(1000);
        const stats = await queryClient.fetchQuery({ ...episodeStatsQuery, staleTime: 0 }).catch(() => null);
        open = stats !== null && stats.blockReason !== 'monthly_limit';
      }
      if (open) notify.success(billingTexts.extraEpisodeReady);
      else notify.info(billingTexts.extraEpisodePending);
      const params = new URLSearchParams(location.search);
      params.delete(EXTRA_EPISODE_RETURN_PARAM);
      const search = params.toString();
      navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
    })();
  }, [returned, queryClient, navigate, location]);
}
