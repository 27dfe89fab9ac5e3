export function ErrorAlert({ title, message }: { title: string; message: string }) {
  return (
    <div role="alert" className="alert alert-error">
      <div>
        <p className="font-semibold">{title}</p>
        <p className="text-sm">{message}</p>
      </div>
    </div>
  );
}

/** A failure that takes the place of a screen: what happened and the one thing to do about it. */
export function FailureNotice({ title, message, actionLabel, onAction }: { title: string; message: string; actionLabel: string; onAction: () => void }) {
  return (
    <main className="mx-auto flex min-h-[50vh] max-w-md flex-col items-center justify-center gap-4 px-4">
      <ErrorAlert title={title} message={message} />
      <button type="button" className="btn btn-primary" onClick={onAction}>
        {actionLabel}
      </button>
    </main>
  );
}
