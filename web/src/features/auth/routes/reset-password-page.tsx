import { resetPasswordFormSchema, type ResetPasswordForm } from '@domain/auth-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { AuthCard } from '@/components/auth-card';
import { FormField } from '@/components/form-field';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { InvalidResetLinkError, resetPassword } from '../api/auth-actions';
import { texts } from '../texts';

const t = texts.reset;

export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [done, setDone] = useState(false);
  const form = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (!token) {
      notify.error(t.invalidLinkTitle, { description: t.invalidLinkBody });
      navigate('/login', { replace: true });
    }
  }, [token, navigate]);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    if (!token) return;
    try {
      await resetPassword(token, password);
      setDone(true);
    } catch (error) {
      if (error instanceof InvalidResetLinkError) {
        notify.error(t.invalidLinkTitle, { description: t.invalidLinkBody });
        navigate('/login', { replace: true });
        return;
      }
      notify.error(t.failed, { description: errorMessage(error, 'Please try again.') });
    }
  });

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
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
        <FormField label={t.password} type="password" autoComplete="new-password" error={errors.password?.message} {...form.register('password')} />
        <FormField
          label={t.confirmPassword}
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {isSubmitting ? t.pending : t.submit}
        </button>
      </form>
    </AuthCard>
  );
}
