// Shown once on the dashboard after onboarding: when the just-completed flag is set and the
// seen flag is not. Closing it sets the seen flag.
import { useEffect, useRef, useState } from 'react';
import { JUST_COMPLETED_ONBOARDING, SEEN_WELCOME } from '@/lib/local-storage-keys';
import { texts } from '../texts';

const t = texts.welcome;

export function WelcomeModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open] = useState(() => localStorage.getItem(JUST_COMPLETED_ONBOARDING) !== null && localStorage.getItem(SEEN_WELCOME) === null);

  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);

  if (!open) return null;
  const close = () => {
    localStorage.setItem(SEEN_WELCOME, 'true');
    dialog.current?.close();
  };
  return (
    <dialog ref={dialog} className="modal" aria-labelledby="welcome-title" onClose={() => localStorage.setItem(SEEN_WELCOME, 'true')}>
      <div className="modal-box flex flex-col gap-3">
        <h2 id="welcome-title" className="text-xl font-bold">
          {t.title}
        </h2>
        <h3 className="font-semibold">{t.next}</h3>
        <ul className="list-disc pl-5">
          <li>{t.hosting}</li>
          <li>{t.email}</li>
          <li>{t.spam}</li>
        </ul>
        <h3 className="font-semibold">{t.recommendationsTitle}</h3>
        <ul className="list-disc pl-5">
          {t.recommendations.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <div className="modal-action">
          <button type="button" className="btn btn-primary" onClick={close}>
            {t.close}
          </button>
        </div>
      </div>
    </dialog>
  );
}
