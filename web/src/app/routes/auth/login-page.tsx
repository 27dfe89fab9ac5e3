import { loginSchema, type LoginPayload } from '@domain/auth-schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { AuthCard } from '@/components/auth-card';
import { Form, SubmitButton, useZodForm } from '@/components/form';
import { FormField } from '@/components/form-field';
import { delays, wait } from '@/lib/delays';
import { queryKeys } from '@/lib/query-keys';
import { useLogin } from '@/features/auth/api/login';
import { AuthSwitchLink } from '@/features/auth/components/auth-switch-link';
import { texts } from '@/features/auth/texts';

const t = texts.login;

export default function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useLogin();
  const form = useZodForm(loginSchema, { defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;

  const onSubmit = async (payload: LoginPayload) => {
    await login.mutateAsync(payload);
    await queryClient.invalidateQueries({ queryKey: queryKeys.account });
    await wait(delays.afterLoginMs);
    navigate('/', { replace: true });
  };

  return (
    <AuthCard title={t.title}>
      <Form form={form} onSubmit={onSubmit} failureTitle={t.failed} failureAlert success={{ title: t.successTitle }}>
        <FormField label={t.email} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <FormField label={t.password} type="password" autoComplete="current-password" error={errors.password?.message} {...form.register('password')} />
        <div className="text-right text-sm">
          <Link className="link" to="/forgot-password">
            {t.forgot}
          </Link>
        </div>
        <SubmitButton label={t.submit} pendingLabel={t.pending} />
      </Form>
      <AuthSwitchLink prompt={t.noAccount} to="/register" label={t.register} />
    </AuthCard>
  );
}
