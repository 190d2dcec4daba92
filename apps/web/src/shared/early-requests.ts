import type { EarlyRequest } from '../early';

/** An answer asked for early (src/early.ts) is the page's only while the page is opening. */
export const EARLY_MAX_AGE_MS = 15_000;

/**
 * The response of a request src/early.ts started for the page the app opened on, if it is this
 * very request (method, address, language and session): taken once, then it is gone.
 */
export function takeEarlyResponse(
  method: string,
  url: string,
  lang: string,
  token: string | null,
  now = Date.now(),
): Promise<Response> | null {
  const list: EarlyRequest[] | undefined = window.__verdantEarly;
  if (!list?.length) return null;
  const i = list.findIndex(
    (r) =>
      r.method === method &&
      r.url === url &&
      r.lang === lang &&
      r.token === token &&
      now - r.at < EARLY_MAX_AGE_MS,
  );
  if (i < 0) return null;
  const [hit] = list.splice(i, 1);
  return hit?.response ?? null;
}
