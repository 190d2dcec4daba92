import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from './paths';

/**
 * How deep the user is inside the app. React Router keeps an `idx` in history.state: 0 is the
 * entry the app was opened with (a direct link, a reload), so there is nothing of ours behind it.
 */
export function historyIndex(): number {
  const state: unknown = window.history.state;
  if (state && typeof state === 'object' && 'idx' in state && typeof state.idx === 'number') return state.idx;
  return 0;
}

/** Back in history when the app has a page behind this one, else to Home (spec §2). */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (historyIndex() > 0) navigate(-1);
    else navigate(paths.home, { replace: true });
  }, [navigate]);
}
