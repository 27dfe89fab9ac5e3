import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { FullPageSpinner } from '@/components/spinner';
import { createQueryClient } from '@/lib/query-client';
import { appShellHtml } from './app-shell';
import { Header } from './layout/header';
import { appTexts } from './texts';

vi.mock('@/lib/supabase', () => ({ authClient: vi.fn(), currentAccessToken: vi.fn() }));

describe('app shell', () => {
  it('is what React first renders: the signed-out header and the loading spinner', () => {
    const firstRender = renderToStaticMarkup(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/login']}>
          <Header />
          <FullPageSpinner label={appTexts.loading} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(appShellHtml).toBe(firstRender);
  });
});
