import { useMemo } from 'react';
import { matchRoutes, type RouteObject, useLocation } from 'react-router';
import { type PageMeta, type PageName, pages, paths } from '../shared/paths';

export interface RouteHandle {
  page: PageName;
}

// Every page's path, matched as the router matches it (case, a trailing slash): the router runs
// in declarative mode (no useMatches), so the page is found from the location.
const PAGE_ROUTES: RouteObject[] = (Object.keys(paths) as PageName[]).map((page) => ({
  path: paths[page],
  handle: { page } satisfies RouteHandle,
}));

/** The page at a hash path (without its query), or null when no page has that path. */
export function pageAt(pathname: string): PageName | null {
  const handle = matchRoutes(PAGE_ROUTES, pathname)?.at(-1)?.route.handle as RouteHandle | undefined;
  return handle?.page ?? null;
}

/** The page the router matched, with its title and login requirement. */
export function useCurrentPage(): { name: PageName; meta: PageMeta } | null {
  const { pathname } = useLocation();
  return useMemo(() => {
    const name = pageAt(pathname);
    return name ? { name, meta: pages[name] } : null;
  }, [pathname]);
}
