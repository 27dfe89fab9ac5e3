// The configuration form's unsaved input survives a reload: every change that differs from the
// saved profile is kept in local storage under the user (and the form's mode), restored when the
// form opens, and dropped once the form saves or the user discards it. Only the text fields and
// the posting switch are kept: never chosen files (a File cannot be stored), and the form holds
// no secrets (WordPress credentials live in the connections dialog).
import { profileTextFields, type ProfileTextField } from '@domain/onboarding';
import { useCallback, useEffect, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { ConfigurationValues } from './configuration-values';

type DraftField = ProfileTextField | 'postAutomatically';
export type Draft = Partial<Pick<ConfigurationValues, DraftField>>;

/** The profile's text fields (the sign-in email, shown read-only, is not one of them). */
const textFields = profileTextFields;

/** The fields of `values` that differ from `saved`, or null when none does. */
export function draftOf(values: Partial<ConfigurationValues>, saved: Partial<ConfigurationValues>): Draft | null {
  const draft: Record<string, string | boolean> = {};
  for (const field of textFields) {
    const value = values[field];
    if (typeof value === 'string' && value !== (saved[field] ?? '')) draft[field] = value;
  }
  if (typeof values.postAutomatically === 'boolean' && values.postAutomatically !== saved.postAutomatically) {
    draft.postAutomatically = values.postAutomatically;
  }
  return Object.keys(draft).length > 0 ? (draft as Draft) : null;
}

/** A stored draft, keeping only known fields of the right type (anything else is dropped). */
export function readDraft(key: string): Draft | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const stored = parsed as Record<string, unknown>;
  const draft: Record<string, string | boolean> = {};
  for (const field of textFields) if (typeof stored[field] === 'string') draft[field] = stored[field];
  if (typeof stored.postAutomatically === 'boolean') draft.postAutomatically = stored.postAutomatically;
  return Object.keys(draft).length > 0 ? (draft as Draft) : null;
}

/**
 * Keeps `form`'s unsaved input under `key`. `restored`: the form opened with a draft; `clear`
 * forgets it (after a save, or when the user discards the changes).
 */
export function useFormDraft(form: UseFormReturn<ConfigurationValues>, key: string) {
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    const draft = readDraft(key);
    if (draft) {
      for (const [field, value] of Object.entries(draft) as [DraftField, string | boolean][]) {
        form.setValue(field, value as never, { shouldDirty: true });
      }
      setRestored(true);
    }
    const subscription = form.watch((values) => {
      const draft = draftOf(values as Partial<ConfigurationValues>, form.formState.defaultValues as Partial<ConfigurationValues>);
      if (draft) localStorage.setItem(key, JSON.stringify(draft));
      else localStorage.removeItem(key);
    });
    return () => subscription.unsubscribe();
  }, [form, key]);
  const clear = useCallback(() => {
    localStorage.removeItem(key);
    setRestored(false);
  }, [key]);
  return { restored, clear };
}
