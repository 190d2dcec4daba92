/** localStorage keys the app owns. token/user/lang/theme survive "clear cache". */
export const StorageKey = {
  token: 'token',
  user: 'user',
  lang: 'lang',
  theme: 'theme',
} as const;

export const KEPT_ON_CLEAR: readonly string[] = Object.values(StorageKey);

// Storage can throw (private mode, disabled cookies): the app keeps working without it.
export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // nothing to do: the value lives only for this visit
  }
}

/** Removes every key except the ones listed (used by Settings → clear cache). */
export function clearStorageExcept(keep: readonly string[]): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < window.localStorage.length; i++) {
      const k = window.localStorage.key(i);
      if (k !== null && !keep.includes(k)) keys.push(k);
    }
    for (const k of keys) window.localStorage.removeItem(k);
  } catch {
    // storage unavailable: nothing cached there either
  }
}
