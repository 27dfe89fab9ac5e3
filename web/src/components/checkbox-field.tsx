// A checkbox (or toggle switch) with its label text beside it, the whole label clickable.
import { forwardRef, type InputHTMLAttributes } from 'react';

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> {
  label: string;
  /** Drawn as a switch instead of a box; still a checkbox to assistive technology. */
  toggle?: boolean;
}

export const CheckboxField = forwardRef<HTMLInputElement, CheckboxFieldProps>(function CheckboxField({ label, toggle = false, ...input }, ref) {
  return (
    // daisyUI's label does not wrap: a long label on a phone would run past its card.
    <label className="label cursor-pointer justify-start gap-2 whitespace-normal">
      <input ref={ref} type="checkbox" className={`shrink-0 ${toggle ? 'toggle toggle-primary' : 'checkbox'}`} {...input} />
      <span className="label-text min-w-0">{label}</span>
    </label>
  );
});
