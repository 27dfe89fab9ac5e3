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
