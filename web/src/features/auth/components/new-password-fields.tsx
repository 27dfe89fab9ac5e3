// The new password and its confirmation, for the forms that set one (sign-up and reset).
import { useFormContext } from 'react-hook-form';
import { FormField } from '@/components/form-field';

interface NewPasswordForm {
  password: string;
  confirmPassword: string;
}

export function NewPasswordFields({ labels }: { labels: Record<keyof NewPasswordForm, string> }) {
  const { register, formState } = useFormContext<NewPasswordForm>();
  return (['password', 'confirmPassword'] as const).map((name) => (
    <FormField key={name} label={labels[name]} type="password" autoComplete="new-password" error={formState.errors[name]?.message} {...register(name)} />
  ));
}
