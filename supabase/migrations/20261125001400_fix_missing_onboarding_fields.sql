-- private.missing_onboarding_fields appended each field name as an array literal
-- (`text[] || 'brandFont'`), which fails. Append them as elements.

-- The spec field names still missing for first-time onboarding, in form order.
create or replace function private.missing_onboarding_fields(p_user uuid)
returns text[]
language plpgsql
stable
set search_path = ''
as $$
declare
  p public.profiles;
  v_missing text[] := '{}';
begin
  select * into p from public.profiles where id = p_user;
  if private.is_blank(p.brand_font) then v_missing := array_append(v_missing, 'brandFont'); end if;
  if private.is_blank(p.brand_color_primary) then v_missing := array_append(v_missing, 'brandColorPrimary'); end if;
  if private.is_blank(p.brand_color_secondary) then v_missing := array_append(v_missing, 'brandColorSecondary'); end if;
  if private.is_blank(p.brand_color_tertiary) then v_missing := array_append(v_missing, 'brandColorTertiary'); end if;
  if private.is_blank(p.podcast_title) then v_missing := array_append(v_missing, 'podcastTitle'); end if;
  if private.is_blank(p.podcast_description) then v_missing := array_append(v_missing, 'podcastDescription'); end if;
  if private.is_blank(p.podcast_primary_category) then v_missing := array_append(v_missing, 'podcastPrimaryCategory'); end if;
  if private.is_blank(p.podcast_author) then v_missing := array_append(v_missing, 'podcastAuthor'); end if;
  if not private.brand_asset_exists(p.logo_path, array['image/png']) then v_missing := array_append(v_missing, 'logo'); end if;
  if not private.brand_asset_exists(p.podcast_cover_path, array['image/jpeg', 'image/jpg']) then
    v_missing := array_append(v_missing, 'podcastCover');
  end if;
  return v_missing;
end
$$;
