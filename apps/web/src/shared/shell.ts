import { createContext, useContext } from 'react';

/** What the app shell offers to pages (the Home header opens the side menu). */
export interface Shell {
  openMenu: () => void;
}

export const ShellContext = createContext<Shell>({ openMenu: () => {} });

export function useShell(): Shell {
  return useContext(ShellContext);
}
