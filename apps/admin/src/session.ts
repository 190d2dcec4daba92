import type { Operator } from '@verdant/api';
import { useSyncExternalStore } from 'react';

/** What the console keeps of the login: the token and who it belongs to (localStorage). */
export interface ConsoleSession {
  token: string;
  operator: Operator;
}

const KEY = 'verdant-admin-session';
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: ConsoleSession | null } = { raw: null, value: null };

function read(): ConsoleSession | null {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(KEY);
  } catch {
    raw = null;
  }
  if (raw !== cached.raw) {
    let value: ConsoleSession | null = null;
    try {
      const v = raw ? (JSON.parse(raw) as ConsoleSession) : null;
      value = v && typeof v.token === 'string' && v.operator ? v : null;
    } catch {
      value = null;
    }
    cached = { raw, value };
  }
  return cached.value;
}

function emit() {
  for (const l of listeners) l();
}

export function getSession(): ConsoleSession | null {
  return read();
}

export function getToken(): string | null {
  return read()?.token ?? null;
}

export function saveSession(s: ConsoleSession): void {
  localStorage.setItem(KEY, JSON.stringify(s));
  emit();
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
  emit();
}

function subscribe(l: () => void) {
  listeners.add(l);
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY) l();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(l);
    window.removeEventListener('storage', onStorage);
  };
}

/** The session, re-rendering when it changes (here or in another tab). */
export function useSession(): ConsoleSession | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
