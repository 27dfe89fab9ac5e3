-- The three public tiers of spec section 9 and the unlimited enterprise tier.

insert into public.plans
  (id, title, price_cents, original_price_cents, description, features, unavailable_features,
   is_popular, episodes_per_month, clips_per_episode, listed, sort_order)
values
  ('starter', 'Starter', 19900, 59900,
   'Get your podcast repurposed every month without lifting a finger.',
   array[
     '1 episode per month',
     '3 short clips per episode',
     'Captions and show notes',
     'Blog post from every episode',
     'Automatic scheduling and posting',
     'Podcast hosting setup'
   ],
   array['Priority support', 'Dedicated account manager'],
   false, 1, 3, true, 1),
  ('growth', 'Growth', 49900, 119900,
   'More episodes and more clips to grow your audience faster.',
   array[
     '2 episodes per month',
     '5 short clips per episode',
     'Captions and show notes',
     'Blog post from every episode',
     'Automatic scheduling and posting',
     'Podcast hosting setup',
     'Priority support'
   ],
   array['Dedicated account manager'],
   true, 2, 5, true, 2),
  ('scale', 'Scale', 119900, 199900,
   'Weekly episodes with the most clips and a dedicated account manager.',
   array[
     '4 episodes per month',
     'Up to 10 short clips per episode',
     'Captions and show notes',
     'Blog post from every episode',
     'Automatic scheduling and posting',
     'Podcast hosting setup',
     'Priority support',
     'Dedicated account manager'
   ],
   array[]::text[],
   false, 4, 10, true, 3),
  ('enterprise', 'Enterprise', null, null,
   'Unlimited episodes, arranged with our team.',
   array['Unlimited episodes', 'Priority support', 'Dedicated account manager'],
   array[]::text[],
   false, null, 10, false, 4);
