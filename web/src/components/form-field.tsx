// A labelled input with its validation message, tied together for screen readers and tests, and
// the frame (label above, message below) that every other kind of field is drawn in.
import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

/** The id of the element showing `id`'s validation message. */
export const errorIdOf = (id: string) => `${id}-error`;

/** What a control needs to announce its state: invalid, described by its hint and its message. */
export function validityProps(id: string, error: string | undefined, hintId?: string) {
  const describedBy = [hintId, error ? errorIdOf(id) : undefined].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined };
}

/** A label tied to the control `id`, the control (and anything under it), then the message. */
export function LabelledField({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="form-control w-full">
      <label htmlFor={id} className="label pb-1">
        <span className="label-text font-medium">{label}</span>
      </label>
      {children}
      {error && (
        <p id={errorIdOf(id)} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
}

export const FormField = forwardRef<HTMLInputElement, FormFieldProps>(function FormField({ label, error, id, ...input }, ref) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <LabelledField id={inputId} label={label} error={error}>
      <input ref={ref} id={inputId} className={`input input-bordered w-full ${error ? 'input-error' : ''}`} {...validityProps(inputId, error)} {...input} />
    </LabelledField>
  );
});

interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
}

export function TextAreaField({ label, error, ...textarea }: TextAreaProps) {
  const id = useId();
  return (
    <LabelledField id={id} label={label} error={error}>
      <textarea id={id} className={`textarea textarea-bordered w-full ${error ? 'textarea-error' : ''}`} {...validityProps(id, error)} {...textarea} />
    </LabelledField>
  );
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string;
  placeholder?: string;
  children: ReactNode;
}

/** `placeholder`: a first, empty choice (a select that may be left unchosen). */
export function SelectField({ label, error, children, placeholder, ...select }: SelectProps) {
  const id = useId();
  return (
    <LabelledField id={id} label={label} error={error}>
      <select id={id} className={`select select-bordered w-full ${error ? 'select-error' : ''}`} {...validityProps(id, error)} {...select}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {children}
      </select>
    </LabelledField>
  );
}
