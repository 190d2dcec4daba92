import { useMatches } from 'react-router';
import { type PageMeta, type PageName, pages } from '../shared/paths';

export interface RouteHandle {
  page: PageName;
}

function isRouteHandle(v: unknown): v is RouteHandle {
  return Boolean(v && typeof v === 'object' && 'page' in v);
}

/** The page the router matched, with its title and login requirement. */
export function useCurrentPage(): { name: PageName; meta: PageMeta } | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle)) return { name: handle.page, meta: pages[handle.page] };
  }
  return null;
}
