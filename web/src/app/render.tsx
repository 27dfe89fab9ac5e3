// React DOM and the app, rendered into the static app shell. main.tsx loads this module after the
// first requests have gone out, so evaluating React DOM (the largest script) is a task of its own.
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { QueryClient } from '@tanstack/react-query';
import { App } from './app';

export function renderApp(queryClient: QueryClient): void {
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
}
