import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { Notifications } from './notifications';
import { AppRoutes } from './router';

/** The app around `queryClient`, made at startup so requests can start before the first render. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <Notifications />
    </QueryClientProvider>
  );
}
