// The toast area: one toast at a time (lib/toast.ts), F8 moves focus to it.
import { useEffect, useRef } from 'react';
import { Toaster } from 'react-hot-toast';
import { TOAST_DURATION_MS } from '@/lib/toast';
import { appTexts } from './texts';

export function Notifications() {
  const region = useRef<HTMLElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        event.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <section ref={region} tabIndex={-1} aria-label={appTexts.notificationsLabel} className="outline-none">
      <Toaster position="bottom-right" toastOptions={{ duration: TOAST_DURATION_MS, style: { maxWidth: 420 } }} />
    </section>
  );
}
