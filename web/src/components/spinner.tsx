import { componentTexts } from './texts';

export function FullPageSpinner({ label = componentTexts.loading }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-3" role="status" aria-live="polite">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <p>{label}</p>
    </div>
  );
}
