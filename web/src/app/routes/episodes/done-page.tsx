import { useNavigate } from 'react-router-dom';
import { doneTexts as t } from '@/features/episodes/texts';

export default function DonePage() {
  const navigate = useNavigate();
  // The spec's button closes the window; when the browser refuses (a tab the user opened), go home.
  const close = () => {
    window.close();
    navigate('/', { replace: true });
  };
  return (
    <main className="flex min-h-[60vh] items-center justify-center px-4">
      <section className="card max-w-lg bg-base-100 shadow-xl">
        <div className="card-body items-center gap-3 text-center">
          <h1 className="card-title text-2xl">{t.title}</h1>
          <p>{t.processing}</p>
          <p>{t.drive}</p>
          <p className="text-base-content/70">{t.timing}</p>
          <button type="button" className="btn btn-primary" onClick={close}>
            {t.returnToDashboard}
          </button>
        </div>
      </section>
    </main>
  );
}
