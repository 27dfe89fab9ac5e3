// The one form component: react-hook-form with a zod resolver (`useZodForm`, the only place
// that calls react-hook-form's `useForm`), owning what every form does alike: the pending state
// (SubmitButton), the failure toast and the inline error alert, and an optional success toast.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState, type ReactNode } from 'react';
import {
  FormProvider,
  useForm,
  useFormState,
  type FieldErrors,
  type FieldValues,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod/mini';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { ErrorAlert } from './alert';
import { componentTexts } from './texts';

/**
 * A form's state, validated by `schema` (a shared domain schema, or a form's own built from one).
 * A function is called at each validation, for a rule that reads what is stored now.
 */
export function useZodForm<Input extends FieldValues, Output extends FieldValues = Input>(
  schema: z.ZodMiniType<Output, Input> | (() => z.ZodMiniType<Output, Input>),
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver'> = {},
): UseFormReturn<Input, unknown, Output> {
  const resolver: Resolver<Input, unknown, Output> = (values, context, resolverOptions) =>
    zodResolver(typeof schema === 'function' ? schema() : schema)(values, context, resolverOptions);
  return useForm<Input, unknown, Output>({ ...options, resolver });
}

interface FormProps<Input extends FieldValues, Output extends FieldValues> {
  form: UseFormReturn<Input, unknown, Output>;
  /** Throw to fail: the message goes to the toast and, with `failureAlert`, the inline alert. */
  onSubmit: (values: Output) => Promise<void>;
  /** Called when validation refuses the values (the fields show their messages either way). */
  onInvalid?: (errors: FieldErrors<Input>) => void;
  failureTitle: string;
  /** The toast's text instead of the error's message (the alert still shows the message). */
  failureDescription?: string | ((error: unknown) => string);
  failureAlert?: boolean;
  success?: { title: string; description?: string };
  className?: string;
  children: ReactNode;
}

export function Form<Input extends FieldValues, Output extends FieldValues = Input>({
  form,
  onSubmit,
  onInvalid,
  failureTitle,
  failureDescription,
  failureAlert = false,
  success,
  className = 'flex flex-col gap-3',
  children,
}: FormProps<Input, Output>) {
  const [failure, setFailure] = useState<string | null>(null);
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit(values);
    } catch (error) {
      const message = errorMessage(error, componentTexts.retryHint);
      if (failureAlert) setFailure(message);
      const description = typeof failureDescription === 'function' ? failureDescription(error) : (failureDescription ?? message);
      notify.error(failureTitle, { description });
      return;
    }
    if (success) notify.success(success.title, { description: success.description });
  }, onInvalid);

  return (
    <FormProvider {...form}>
      {failure && <ErrorAlert title={failureTitle} message={failure} />}
      <form onSubmit={submit} noValidate className={className}>
        {children}
      </form>
    </FormProvider>
  );
}

/** The submit button: disabled and relabelled while the form is submitting. */
export function SubmitButton({ label, pendingLabel, className = 'btn btn-primary' }: { label: string; pendingLabel: string; className?: string }) {
  const { isSubmitting } = useFormState();
  return (
    <button type="submit" className={className} disabled={isSubmitting}>
      {isSubmitting ? pendingLabel : label}
    </button>
  );
}
