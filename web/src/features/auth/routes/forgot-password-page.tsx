import { forgotPasswordSchema, type ForgotPasswordPayload } from '@domain/auth-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { AuthCard } from '@/components/auth-card';
import { FormField } from '@/components/form-field';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { requestPasswordReset } from '../api/auth-actions';
import { supportEmail } from '@/lib/external-links';
import { texts } from '../texts';

const t = texts.forgot;

export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<ForgotPasswordPayload>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (payload) => {
    try {
      await requestPasswordReset(payload);
      setSentTo(payload.email);
    } catch (error) {
      notify.error(t.failed, { description: errorMessage(error, 'Please try again.') });
    }
  });

  if (sentTo) {
    return (
      <AuthCard title={t.sentTitle}>
        <p>{t.sentBody(sentTo)}</p>
        <p className="text-sm text-base-content/70">{t.supportHint(supportEmail)}</p>
        <button type="button" className="btn btn-primary" onClick={() => navigate('/login')}>
          {t.backToLogin}
        </button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t.title} subtitle={t.subtitle}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
        <FormField label={t.email} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {isSubmitting ? t.pending : t.submit}
        </button>
      </form>
      <p className="text-center text-sm">
        {t.rememberPassword}{' '}
        <Link className="link link-primary" to="/login">
          {t.backToLogin}
        </Link>
      </p>
    </AuthCard>
  );
}
