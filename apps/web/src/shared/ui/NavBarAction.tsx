import { type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import './navbar-action.css';

/** Where a page may put one action in the navigation bar (AppNavBar renders the slot). */
export const NAVBAR_SLOT_ID = 'v-navbar-action';

/** Renders `children` at the right of the dark navigation bar, for as long as the page is shown. */
export function NavBarAction({ children }: { children: ReactNode }) {
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useEffect(() => {
    setSlot(document.getElementById(NAVBAR_SLOT_ID));
  }, []);
  return slot ? createPortal(children, slot) : null;
}

/** The page's one action as an icon button in the navigation bar (rules, records, bank cards). */
export function NavBarIconButton({
  label,
  onClick,
  children,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <NavBarAction>
      <button type="button" className="v-navbar-icon" aria-label={label} onClick={onClick}>
        {children}
      </button>
    </NavBarAction>
  );
}
