-- Local development only (applied once to a fresh local database after the migrations).
-- Never real secrets. Demo accounts are created through the Auth admin API by
-- local/demo-accounts.ts, so their passwords are hashed by Auth like any other.

-- Stripe sandbox price ids (local/sandbox/stripe/settings.ts creates the same prices). On
-- hosted Supabase set the real ones with an UPDATE of public.plans (docs/deploy.md).
update public.plans set stripe_price_id = 'price_local_starter' where id = 'starter';
update public.plans set stripe_price_id = 'price_local_growth' where id = 'growth';
update public.plans set stripe_price_id = 'price_local_scale' where id = 'scale';
