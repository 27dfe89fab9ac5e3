// The routes of the route table, behind the access rules; the tab's title follows the address.
// A screen that fails (its chunk did not load, or it threw) shows the failure and a Reload button
// below the header, which stays with its navigation; going to another address tries again.
import { Suspense, useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '@/components/error-boundary';
import { FullPageSpinner } from '@/components/spinner';
import { AccessGate } from './access-gate';
import { Header } from './layout/header';
import { documentTitle, notFoundRoute, routeTable } from './route-table';
import { ScreenError } from './screen-error';

export function AppRoutes() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(pathname);
  }, [pathname]);
  return (
    <>
      <Header />
      <ErrorBoundary resetKey={pathname} fallback={(error) => <ScreenError error={error} />}>
        <AccessGate>
          <Suspense fallback={<FullPageSpinner />}>
            <Routes>
              {routeTable.map(({ path, page: Page }) => (
                <Route key={path} path={path} element={<Page />} />
              ))}
              <Route path="*" element={<notFoundRoute.page />} />
            </Routes>
          </Suspense>
        </AccessGate>
      </ErrorBoundary>
    </>
  );
}
