// The routes of the route table, behind the access rules; the tab's title follows the address.
import { Suspense, useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { FullPageSpinner } from '@/components/spinner';
import { AccessGate } from './access-gate';
import { Header } from './layout/header';
import { documentTitle, notFoundRoute, routeTable } from './route-table';

export function AppRoutes() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(pathname);
  }, [pathname]);
  return (
    <>
      <Header />
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
    </>
  );
}
