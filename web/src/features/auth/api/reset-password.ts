// Redeems the e-mailed recovery token, sets the new password, and ends that recovery session.
import { useMutation } from '@tanstack/react-query';
import { authClient } from '@/lib/supabase';
import { texts } from '../texts';

async function resetPassword({ token, password }: { token: string; password: string }): Promise<void> {
  const auth = await authClient();
  const verified = await auth.verifyOtp({ token_hash: token, type: 'recovery' });
  if (verified.error || !verified.data.session) throw verified.error ?? new Error(texts.reset.invalidLinkBody);
  const updated = await auth.updateUser({ password });
  await auth.signOut({ scope: 'local' });
  if (updated.error) throw updated.error;
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
