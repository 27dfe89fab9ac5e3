import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { ErrorBoundary } from '@/components/error-boundary';
import { Notifications } from './notifications';
import { AppRoutes } from './router';
import { ScreenError } from './screen-error';

/**
 * The app around `queryClient`, made at startup so requests can start before the first render.
 * What fails outside a screen (the header, the providers) shows the failure and a Reload button
 * here, in place of everything; a screen's own failure is caught inside (router.tsx).
 */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <ErrorBoundary fallback={(error) => <ScreenError error={error} />}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <Notifications />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
