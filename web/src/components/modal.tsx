// A modal dialog on the native <dialog> element: showModal() moves focus in and traps it, and
// Escape closes it (the element's close event calls onClose).
import { useEffect, useId, useRef, type ReactNode } from 'react';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** A visible close button beside the title, with this name. */
  closeLabel?: string;
  headingLevel?: 2 | 3;
  /** Extra classes for the box (its width and layout). */
  boxClassName?: string;
  /** Keep the content mounted while closed (what it holds survives closing). */
  keepMounted?: boolean;
}

export function Modal({
  open,
  title,
  onClose,
  children,
  closeLabel,
  headingLevel = 3,
  boxClassName = '',
  keepMounted = false,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const heading = (
    <Heading id={titleId} className={headingLevel === 2 ? 'text-xl font-bold' : 'text-lg font-bold'}>
      {title}
    </Heading>
  );
  return (
    <dialog ref={ref} className="modal" aria-labelledby={titleId} onClose={onClose}>
      {(open || keepMounted) && (
        <div className={`modal-box ${boxClassName}`.trim()}>
          {closeLabel ? (
            <div className="flex items-start justify-between gap-4">
              {heading}
              <button type="button" className="btn btn-ghost btn-sm" onClick={onClose}>
                {closeLabel}
              </button>
            </div>
          ) : (
            heading
          )}
          {children}
        </div>
      )}
    </dialog>
  );
}
