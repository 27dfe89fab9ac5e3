import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { database } from '@/lib/supabase';

export interface Plan {
  id: string;
  title: string;
  description: string;
  priceCents: number;
  originalPriceCents: number | null;
  features: string[];
  unavailableFeatures: string[];
  isPopular: boolean;
}

async function getPlans(): Promise<Plan[]> {
  const { data, error } = await (
    await database()
  )
    .from('plans')
    .select('id, title, description, price_cents, original_price_cents, features, unavailable_features, is_popular')
    .eq('listed', true)
    .order('sort_order');
  if (error) throw new Error(error.message);
  // Only plans sold at a monthly price are listed (enterprise is by contract).
  return data.flatMap((row) =>
    row.price_cents === null
      ? []
      : [
          {
            id: row.id,
            title: row.title,
            description: row.description ?? '',
            priceCents: row.price_cents,
            originalPriceCents: row.original_price_cents,
            features: row.features ?? [],
            unavailableFeatures: row.unavailable_features ?? [],
            isPopular: row.is_popular,
          },
        ],
  );
}

export const plansQuery = queryOptions({ queryKey: queryKeys.plans, queryFn: getPlans, staleTime: 60 * 60 * 1000 });

export function usePlans() {
  return useQuery(plansQuery);
}
