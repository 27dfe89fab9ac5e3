// The one form component: react-hook-form with a zod resolver (the caller's `useForm`), owning
// what every form does alike: the pending state (SubmitButton), the failure toast and the inline
// error alert, and an optional success toast.
import { useState, type ReactNode } from 'react';
import { FormProvider, useFormState, type FieldErrors, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { errorMessage } from '@/lib/api-client';
import { notify } from '@/lib/toast';
import { ErrorAlert } from './alert';
import { componentTexts } from './texts';

interface FormProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  /** Throw to fail: the message goes to the toast and, with `failureAlert`, the inline alert. */
  onSubmit: (values: T) => Promise<void>;
  /** Called when validation refuses the values (the fields show their messages either way). */
  onInvalid?: (errors: FieldErrors<T>) => void;
  failureTitle: string;
  /** A fixed toast text instead of the error's message (the alert still shows the message). */
  failureDescription?: string;
  failureAlert?: boolean;
  success?: { title: string; description?: string };
  className?: string;
  children: ReactNode;
}

export function Form<T extends FieldValues>({
  form,
  onSubmit,
  onInvalid,
  failureTitle,
  failureDescription,
  failureAlert = false,
  success,
  className = 'flex flex-col gap-3',
  children,
}: FormProps<T>) {
  const [failure, setFailure] = useState<string | null>(null);
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit(values);
    } catch (error) {
      const message = errorMessage(error, componentTexts.retryHint);
      if (failureAlert) setFailure(message);
      notify.error(failureTitle, { description: failureDescription ?? message });
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
