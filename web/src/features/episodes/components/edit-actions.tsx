// The review screen's editors end alike: save (pending while it runs) and cancel.
import { SubmitButton } from '@/components/form';
import { reviewTexts as t } from '../texts';

export function EditActions({ save, saving, onCancel }: { save: string; saving: string; onCancel: () => void }) {
  return (
    <div className="flex gap-2">
      <SubmitButton label={save} pendingLabel={saving} />
      <button type="button" className="btn" onClick={onCancel}>
        {t.cancelEdit}
      </button>
    </div>
  );
}
