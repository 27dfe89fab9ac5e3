import { forgotPasswordSchema, type ForgotPasswordPayload } from '@domain/auth-schemas';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AuthCard } from '@/components/auth-card';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { FormField } from '@/components/form-field';
import { useRequestPasswordReset } from '@/features/auth/api/request-password-reset';
import { AuthSwitchLink } from '@/features/auth/components/auth-switch-link';
import { supportEmail } from '@/lib/external-links';
import { texts } from '@/features/auth/texts';

const t = texts.forgot;

export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const requestPasswordReset = useRequestPasswordReset();
  const form = useZodForm(forgotPasswordSchema, { defaultValues: { email: '' } });
  const { errors } = form.formState;

  const onSubmit = async (payload: ForgotPasswordPayload) => {
    await requestPasswordReset.mutateAsync(payload);
    setSentTo(payload.email);
  };

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
      <Form form={form} onSubmit={onSubmit} failureTitle={t.failed}>
        <FormField label={t.email} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <SubmitButton label={t.submit} pendingLabel={t.pending} />
      </Form>
      <AuthSwitchLink prompt={t.rememberPassword} to="/login" label={t.backToLogin} />
    </AuthCard>
  );
}
