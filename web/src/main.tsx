import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadScreenData } from './app/preload-data';
import { preloadPage } from './app/route-table';
import { createQueryClient } from './lib/query-client';
import { preloadAuthClient } from './lib/supabase';
import './index.css';

preloadAuthClient();
preloadPage(window.location.pathname);
const queryClient = createQueryClient();
preloadScreenData(queryClient, window.location.pathname);

// The static app shell is already on screen: the first render may yield to the browser between
// components (a transition) instead of blocking the main thread in one long task.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
