import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { delays } from '@/lib/delays';
import { appTexts } from '../texts';

export default function NotFoundPage() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate('/', { replace: true }), delays.notFoundMs);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <main className="flex min-h-[50vh] flex-col items-center justify-center gap-2">
      <h1 className="text-3xl font-bold">{appTexts.notFoundTitle}</h1>
      <p>{appTexts.notFoundBody}</p>
    </main>
  );
}
