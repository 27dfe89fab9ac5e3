-- Stripe price ids are configuration of each environment (the STRIPE_PRICE_* secrets the
-- functions read); a column nothing read was a second, drifting copy of them.
alter table public.plans drop column stripe_price_id;
