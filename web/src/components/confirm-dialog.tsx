// Asks before a destructive action (disconnecting, canceling a post, discarding unsaved input):
// the action runs only on the confirming button; Escape or the other button leaves everything.
import { Modal } from './modal';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  /** The confirmed action is running: its button waits. */
  pending?: boolean;
}

export function ConfirmDialog({ open, title, message, confirmLabel, cancelLabel, onConfirm, onClose, pending = false }: ConfirmDialogProps) {
  return (
    <Modal open={open} title={title} onClose={onClose}>
      <p className="py-3">{message}</p>
      <div className="modal-action">
        <button type="button" className="btn" onClick={onClose}>
          {cancelLabel}
        </button>
        <button type="button" className="btn btn-error" onClick={onConfirm} disabled={pending}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
