import { describe, expect, it } from 'vitest';
import { documentTitle, findRoute, routeTable } from './route-table';

describe('route table', () => {
  it('lists each address once', () => {
    const paths = routeTable.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it.each([
    ['/login', 'Sign In · Castloop'],
    ['/subscribe/', 'Choose Your Plan · Castloop'],
    ['/admin/episodes/resubmit', 'Episode Resubmission Admin · Castloop'],
    ['/no-such-page', '404 Page Not Found · Castloop'],
    ['/episodes', 'Your Episodes · Castloop'],
    ['/episodes/0b7c6a5e-2f1d-4c8e-9a3b-1d2e3f4a5b6c', 'Episode · Castloop'],
    ['/episodes/1/extra', '404 Page Not Found · Castloop'],
  ])('titles %s as %s', (path, title) => {
    expect(documentTitle(path)).toBe(title);
  });

  it('finds a route with or without a trailing slash, and nothing for an unknown address', () => {
    expect(findRoute('/dashboard/')?.path).toBe('/dashboard');
    expect(findRoute('/dashboard/extra')).toBeUndefined();
  });
});
