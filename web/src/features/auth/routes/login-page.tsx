import { loginSchema, type LoginPayload } from '@domain/auth-schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { ErrorAlert } from '@/components/alert';
import { AuthCard } from '@/components/auth-card';
import { FormField } from '@/components/form-field';
import { errorMessage } from '@/lib/api-client';
import { currentAccountKey } from '@/lib/current-account';
import { delays, wait } from '@/lib/delays';
import { notify } from '@/lib/toast';
import { login } from '../api/auth-actions';
import { texts } from '../texts';

const t = texts.login;

export default function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginPayload>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (payload) => {
    setFailure(null);
    try {
      await login(payload);
      notify.success(t.successTitle);
      await queryClient.invalidateQueries({ queryKey: currentAccountKey });
      await wait(delays.afterLoginMs);
      navigate('/', { replace: true });
    } catch (error) {
      const message = errorMessage(error, 'Please try again.');
      setFailure(message);
      notify.error(t.failed, { description: message });
    }
  });

  return (
    <AuthCard title={t.title}>
      {failure && <ErrorAlert title={t.failed} message={failure} />}
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
        <FormField label={t.email} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <FormField label={t.password} type="password" autoComplete="current-password" error={errors.password?.message} {...form.register('password')} />
        <div className="text-right text-sm">
          <Link className="link" to="/forgot-password">
            {t.forgot}
          </Link>
        </div>
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {isSubmitting ? t.pending : t.submit}
        </button>
      </form>
      <p className="text-center text-sm">
        {t.noAccount}{' '}
        <Link className="link link-primary" to="/register">
          {t.register}
        </Link>
      </p>
    </AuthCard>
  );
}
