// Toasts as the spec configures them: one at a time, 5 s by default.
import { createElement } from 'react';
import { toast as hotToast } from 'react-hot-toast';

export const TOAST_DURATION_MS = 5000;

interface ToastOptions {
  description?: string;
  durationMs?: number;
}

// Every toast shares one id: a new one replaces the one on screen (one at a time).
const TOAST_ID = 'castloop-toast';

function show(kind: 'success' | 'error' | 'info', title: string, options: ToastOptions = {}): void {
  // The spec's toasts have a title and, below it, a description.
  const message = options.description
    ? createElement('div', null, createElement('p', { className: 'font-semibold' }, title), createElement('p', null, options.description))
    : title;
  const settings = {
    id: TOAST_ID,
    duration: options.durationMs ?? TOAST_DURATION_MS,
    ariaProps: { role: 'status' as const, 'aria-live': 'polite' as const },
  };
  if (kind === 'success') hotToast.success(message, settings);
  else if (kind === 'error') hotToast.error(message, { ...settings, ariaProps: { role: 'alert', 'aria-live': 'assertive' } });
  else hotToast(message, settings);
}

export const notify = {
  success: (title: string, options?: ToastOptions) => show('success', title, options),
  /** The spec's "destructive" toasts. */
  error: (title: string, options?: ToastOptions) => show('error', title, options),
  info: (title: string, options?: ToastOptions) => show('info', title, options),
};
