// The configuration form's inputs: each with a visible label tied to it and its message below.
import { useId, useRef, useState } from 'react';
import { isHexColor, normalizeHexColor } from '@domain/onboarding';
import { LabelledField, validityProps } from '@/components/form-field';
import { texts } from '../texts';

export function requiredLabel(label: string, required: boolean): string {
  return required ? `${label} *` : label;
}

interface ColorFieldProps {
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  onBlur: () => void;
}

/** A 6-character hex input ('#' stripped, upper-cased) with a colour picker popover. */
export function ColorField({ label, value, error, onChange, onBlur }: ColorFieldProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // Closing puts focus back on the swatch button that opened the popover.
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const valid = isHexColor(value);
  return (
    <LabelledField id={id} label={label} error={error}>
      {/* Escape closes the popover from the swatch button as from inside it (the popover is not modal). */}
      <div
        className="relative flex items-center gap-2"
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || !open) return;
          event.stopPropagation();
          close();
        }}
      >
        <button
          ref={toggle}
          type="button"
          className="btn btn-square btn-outline"
          aria-label={texts.form.pickColor(label.replace(/\s*\*$/, ''))}
          aria-expanded={open}
          onClick={() => setOpen((was) => !was)}
        >
          <span className="h-6 w-6 rounded border border-base-300" style={{ backgroundColor: valid ? `#${value}` : 'transparent' }} aria-hidden="true" />
        </button>
        <input
          id={id}
          className={`input input-bordered w-full font-mono uppercase ${error ? 'input-error' : ''}`}
          value={value}
          placeholder="1A2B3C"
          autoComplete="off"
          spellCheck={false}
          {...validityProps(id, error)}
          onChange={(event) => onChange(normalizeHexColor(event.target.value))}
          onBlur={onBlur}
        />
        {open && (
          <div
            role="dialog"
            aria-label={label.replace(/\s*\*$/, '')}
            className="absolute left-0 top-full z-20 mt-2 flex items-center gap-2 rounded-box border border-base-300 bg-base-100 p-3 shadow-lg"
          >
            <input
              type="color"
              aria-label={`${label.replace(/\s*\*$/, '')} picker`}
              className="h-10 w-16 cursor-pointer"
              value={valid ? `#${value}` : '#000000'}
              onChange={(event) => onChange(normalizeHexColor(event.target.value))}
            />
            <button type="button" className="btn btn-sm btn-primary" onClick={close}>
              {texts.form.colorDone}
            </button>
          </div>
        )}
      </div>
    </LabelledField>
  );
}
