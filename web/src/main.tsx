import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';

function StackCheck() {
  const [status, setStatus] = useState('checking...');
  useEffect(() => {
    fetch('/api/health')
      .then(async (res) => setStatus(res.ok ? (await res.json()).status : `${res.status}: ${res.statusText}`))
      .catch((error: Error) => setStatus(error.message));
  }, []);
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Castloop</h1>
      <p>API: {status}</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StackCheck />
  </StrictMode>,
);
