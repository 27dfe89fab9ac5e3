import { registerFormSchema, type RegisterForm } from '@domain/auth-schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { AuthCard } from '@/components/auth-card';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { FormField } from '@/components/form-field';
import { delays, wait } from '@/lib/delays';
import { PENDING_USER_EMAIL } from '@/lib/local-storage-keys';
import { queryKeys } from '@/lib/query-keys';
import { notify } from '@/lib/toast';
import { useRegister } from '@/features/auth/api/register';
import { AuthSwitchLink } from '@/features/auth/components/auth-switch-link';
import { NewPasswordFields } from '@/features/auth/components/new-password-fields';
import { legalLinks, texts } from '@/features/auth/texts';

const t = texts.register;

export default function RegisterPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const registerAccount = useRegister();
  const form = useZodForm(registerFormSchema, {
    defaultValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = async ({ confirmPassword: _confirm, ...payload }: RegisterForm) => {
    const { email } = await registerAccount.mutateAsync(payload);
    localStorage.setItem(PENDING_USER_EMAIL, email);
    notify.success(t.successTitle, { description: t.successDescription });
    await wait(delays.authRefreshAfterRegisterMs);
    try {
      await queryClient.invalidateQueries({ queryKey: queryKeys.account });
      navigate('/subscribe', { replace: true });
    } catch {
      window.location.assign('/subscribe'); // spec: a full page load if the refresh fails
    }
  };

  return (
    <AuthCard title={t.title} subtitle={t.subtitle}>
      <Form form={form} onSubmit={onSubmit} failureTitle={t.failed} failureAlert>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label={t.firstName} autoComplete="given-name" error={errors.firstName?.message} {...form.register('firstName')} />
          <FormField label={t.lastName} autoComplete="family-name" error={errors.lastName?.message} {...form.register('lastName')} />
        </div>
        <FormField label={t.email} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <NewPasswordFields labels={t} />
        <p className="text-sm text-base-content/70">
          {t.agreementPrefix}{' '}
          <a className="link" href={legalLinks.privacy} target="_blank" rel="noreferrer">
            {t.privacy}
          </a>{' '}
          and{' '}
          <a className="link" href={legalLinks.terms} target="_blank" rel="noreferrer">
            {t.terms}
          </a>
          .
        </p>
        <SubmitButton label={t.submit} pendingLabel={t.pending} />
      </Form>
      <AuthSwitchLink prompt={t.haveAccount} to="/login" label={t.signIn} />
    </AuthCard>
  );
}
