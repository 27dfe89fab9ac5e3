// Removing brand-asset objects from the `brand-assets` bucket, as the caller (Storage's RLS applies).
import { BRAND_ASSETS_BUCKET } from '../../_shared/domain/onboarding.ts';
import { HttpError } from '../../_shared/http-error.ts';
import type { Caller } from '../../_shared/session.ts';
import { userClient } from '../../_shared/supabase-clients.ts';

export async function removeObjects(caller: Caller, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const { error } = await userClient(caller.accessToken).storage.from(BRAND_ASSETS_BUCKET).remove(names);
  if (error) throw new HttpError(502, `Could not delete files: ${error.message}`);
}

/** Best effort: what could not be removed is logged (its path is no longer referenced). */
export async function removeQuietly(caller: Caller, names: string[]): Promise<void> {
  try {
    await removeObjects(caller, names);
  } catch (error) {
    console.error('brand-assets cleanup failed', names, error);
  }
}
