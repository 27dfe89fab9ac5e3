import { resetPasswordFormSchema, type ResetPasswordForm } from '@domain/auth-schemas';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { AuthCard } from '@/components/auth-card';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { notify } from '@/lib/toast';
import { useResetPassword } from '@/features/auth/api/reset-password';
import { NewPasswordFields } from '@/features/auth/components/new-password-fields';
import { texts } from '@/features/auth/texts';

const t = texts.reset;

export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [done, setDone] = useState(false);
  const resetPassword = useResetPassword();
  const form = useZodForm(resetPasswordFormSchema, {
    defaultValues: { password: '', confirmPassword: '' },
  });

  useEffect(() => {
    if (!token) {
      notify.error(t.invalidLinkTitle, { description: t.invalidLinkBody });
      navigate('/login', { replace: true });
    }
  }, [token, navigate]);

  // A used or expired token fails here: 'Reset Failed' with Auth's message (spec section 8).
  const onSubmit = async ({ password }: ResetPasswordForm) => {
    if (!token) return;
    await resetPassword.mutateAsync({ token, password });
    setDone(true);
  };

  if (!token) return null;
  if (done) {
    return (
      <AuthCard title={t.doneTitle}>
        <p>{t.doneBody}</p>
        <button type="button" className="btn btn-primary" onClick={() => navigate('/login', { replace: true })}>
          {t.continueToLogin}
        </button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t.title}>
      <Form form={form} onSubmit={onSubmit} failureTitle={t.failed}>
        <NewPasswordFields labels={t} />
        <SubmitButton label={t.submit} pendingLabel={t.pending} />
      </Form>
    </AuthCard>
  );
}
