import { useQuery } from '@tanstack/react-query';
import { type CurrencyInfo, WALLET_ACCOUNT_TYPES, type WalletAccountType } from '@verdant/api';
import { useCallback, useRef, useState } from 'react';
import { readStorage, writeStorage } from '../../../shared/storage';
import { currenciesQuery } from '../api';

/** The currency list (public, cached for minutes) and a lookup by id. */
export function useCurrencies() {
  const q = useQuery(currenciesQuery());
  const byId = useCallback(
    (id: number | null | undefined): CurrencyInfo | undefined => q.data?.find((c) => c.id === id),
    [q.data],
  );
  return { ...q, byId };
}

/** A yes/no preference of this device (hide amounts, hide small coins). */
export function useStoredFlag(key: string): [boolean, (v: boolean) => void] {
  const [value, setValue] = useState(() => readStorage(key) === '1');
  const set = useCallback(
    (v: boolean) => {
      setValue(v);
      writeStorage(key, v ? '1' : null);
    },
    [key],
  );
  return [value, set];
}

/** A positive whole number from the query string, or the fallback. */
export function idParam(raw: string | null, fallback: number | null = null): number | null {
  return raw && /^\d{1,9}$/.test(raw) ? Number(raw) : fallback;
}

export function isAccountType(v: string | null | undefined): v is WalletAccountType {
  return (WALLET_ACCOUNT_TYPES as readonly string[]).includes(v ?? '');
}

/**
 * Runs `fn` once at a time: a second tap while the first (its confirmation dialog included) is
 * still open does nothing, so money never moves twice from one intention.
 */
export function useOnce(): [(fn: () => Promise<void>) => Promise<void>, boolean] {
  const busy = useRef(false);
  const [pending, setPending] = useState(false);
  const run = useCallback(async (fn: () => Promise<void>) => {
    if (busy.current) return;
    busy.current = true;
    setPending(true);
    try {
      await fn();
    } finally {
      busy.current = false;
      setPending(false);
    }
  }, []);
  return [run, pending];
}
