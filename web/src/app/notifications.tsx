// The toast area: one toast at a time (lib/toast.ts), F8 moves focus to it, and a toast swiped
// right by more than 50 px is dismissed (spec section 9).
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { toast as hotToast, ToastBar, Toaster, type Toast } from 'react-hot-toast';
import { TOAST_DURATION_MS } from '@/lib/toast';
import { appTexts } from './texts';

const SWIPE_DISMISS_PX = 50;

function SwipeableToast({ toast }: { toast: Toast }) {
  const startX = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);
  // The distance is measured from the pointer itself, not from the last rendered offset.
  const reset = () => {
    startX.current = null;
    setOffset(0);
  };
  const end = (event: PointerEvent<HTMLDivElement>) => {
    if (startX.current !== null && event.clientX - startX.current > SWIPE_DISMISS_PX) hotToast.dismiss(toast.id);
    reset();
  };
  return (
    <div
      data-testid="toast"
      // A dismissed toast leaves at once (no exit animation to wait for, nothing left to read).
      // No text selection: dragging selected text would start the browser's own drag and cancel the swipe.
      style={{ transform: `translateX(${offset}px)`, touchAction: 'pan-y', userSelect: 'none', visibility: toast.visible ? 'visible' : 'hidden' }}
      onPointerDown={(event) => {
        startX.current = event.clientX;
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) => {
        if (startX.current !== null) setOffset(Math.max(0, event.clientX - startX.current));
      }}
      onPointerUp={end}
      onPointerCancel={reset}
    >
      {/* No fade: a half-transparent toast is unreadable (and fails contrast checks) while it fades. */}
      <ToastBar toast={toast} style={{ animation: 'none', opacity: 1 }} />
    </div>
  );
}

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
      {/* At the top, away from the forms' submit buttons at the bottom: a toast over the button the
          pointer rests on would cover it and, paused while hovered, never leave. */}
      <Toaster position="top-center" toastOptions={{ duration: TOAST_DURATION_MS, style: { maxWidth: 420 } }}>
        {(toast) => <SwipeableToast toast={toast} />}
      </Toaster>
    </section>
  );
}
