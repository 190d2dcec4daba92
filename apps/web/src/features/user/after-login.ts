import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { historyIndex } from '../../shared/navigation';
import { paths, safeBackpage } from '../../shared/paths';

/**
 * Where a successful login (or registration) leads: the backpage when there is one, else Home.
 * backtype 1 (default) replaces the login page with it; 2 returns through history when possible.
 */
export function useAfterLogin(): () => void {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return useCallback(() => {
    const back = safeBackpage(params.get('backpage'));
    const backtype = Number(params.get('backtype') ?? '1') || 1;
    if (backtype === 2 && !back && historyIndex() > 0) {
      navigate(-1);
      return;
    }
    navigate(back ?? paths.home, { replace: true });
  }, [params, navigate]);
}

/** The backpage/backtype pair, kept when moving between the login pages. */
export function useLoginQuery(): Record<string, string> {
  const [params] = useSearchParams();
  const out: Record<string, string> = {};
  for (const key of ['backpage', 'backtype']) {
    const v = params.get(key);
    if (v) out[key] = v;
  }
  return out;
}
