-- The dashboard's one stats read (episode statistics plus the Setup Progress facts) and what
-- the outbox worker sends with each delivery (brand kit, clips per episode).

-- True when the user has at least one working social account (a connected provider other
-- than the Google Drive used for storage, holding an access token).
create function private.social_connected(p_user uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select 1
      from public.oauth_connections c
     where c.user_id = p_user
       and c.provider <> 'google'
       and c.connected
       and c.has_access_token
       and coalesce(c.status, 'connected') = 'connected'
  )
$$;
revoke execute on function private.social_connected(uuid) from public;
grant execute on function private.social_connected(uuid) to authenticated, service_role;

-- GET /api/episodes/stats: episode_stats() plus onboardingCompleted and socialConnected
-- (the spec's "Onboarding progress"), so the dashboard needs one round trip.
create function public.dashboard_stats()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to see episode statistics.';
  end if;
  return private.episode_stats_for(v_user, now())
    || jsonb_build_object(
         'onboardingCompleted', coalesce((select p.onboarding_completed_at is not null from public.profiles p where p.id = v_user), false),
         'socialConnected', private.social_connected(v_user)
       );
end
$$;
revoke execute on function public.dashboard_stats() from public, anon;
grant execute on function public.dashboard_stats() to authenticated, service_role;

-- What the automation needs besides the outbox payload, for a batch of deliveries: the
-- subscriber's brand kit (asset paths, signed by the worker), the tier's clips per episode and
-- the current postAutomatically setting. Service role only.
create function public.webhook_delivery_context(p_delivery_ids uuid[])
returns table (delivery_id uuid, context jsonb)
language sql
stable
set search_path = ''
as $$
  select d.id,
         jsonb_build_object(
           'clipsPerEpisode', coalesce(pl.clips_per_episode, 3),
           'subscriptionTier', coalesce(s.tier, 'starter'),
           'postAutomatically', coalesce(p.post_automatically, (d.payload ->> 'postAutomatically')::boolean, true),
           'brandKit', jsonb_build_object(
             'brandFont', p.brand_font,
             'brandColorPrimary', p.brand_color_primary,
             'brandColorSecondary', p.brand_color_secondary,
             'brandColorTertiary', p.brand_color_tertiary,
             'podcastTitle', p.podcast_title,
             'podcastAuthor', p.podcast_author,
             'podcastLanguage', p.podcast_language,
             'podcastTimezone', p.podcast_timezone
           ),
           'brandAssetPaths', jsonb_strip_nulls(jsonb_build_object(
             'logo', p.logo_path,
             'podcastCover', p.podcast_cover_path,
             'videoIntro', p.video_intro_path,
             'videoOutro', p.video_outro_path,
             'clipIntro', p.clip_intro_path,
             'clipOutro', p.clip_outro_path
           ))
         )
    from public.webhook_deliveries d
    join public.submission_logs l on l.id = d.submission_log_id
    left join public.profiles p on p.id = l.user_id
    left join public.subscriptions s on s.user_id = l.user_id
    left join public.plans pl on pl.id = coalesce(s.tier, 'starter')
   where d.id = any (p_delivery_ids)
$$;
revoke execute on function public.webhook_delivery_context(uuid[]) from public, anon, authenticated;
grant execute on function public.webhook_delivery_context(uuid[]) to service_role;
