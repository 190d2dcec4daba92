import type { UserCenter } from '@verdant/api';
import { useSyncExternalStore } from 'react';
import { AppEvent } from './events';
import { readStorage, StorageKey, writeStorage } from './storage';

export interface Session {
  token: string | null;
  user: UserCenter | null;
}

let cached: { token: string | null; rawUser: string | null; session: Session } | null = null;

function parseUser(raw: string | null): UserCenter | null {
  if (!raw) return null;
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' ? (v as UserCenter) : null;
  } catch {
    return null;
  }
}

/** The session as stored; the same object is returned until storage changes (for useSyncExternalStore). */
export function getSession(): Session {
  const token = readStorage(StorageKey.token);
  const rawUser = readStorage(StorageKey.user);
  if (!cached || cached.token !== token || cached.rawUser !== rawUser) {
    cached = { token, rawUser, session: { token, user: parseUser(rawUser) } };
  }
  return cached.session;
}

export function getToken(): string | null {
  return readStorage(StorageKey.token);
}

export function isLoggedIn(s: Session = getSession()): boolean {
  return Boolean(s.token && s.user);
}

function changed(): void {
  window.dispatchEvent(new Event(AppEvent.session));
}

export function setSession(token: string, user: UserCenter): void {
  writeStorage(StorageKey.token, token);
  writeStorage(StorageKey.user, JSON.stringify(user));
  changed();
}

export function setUser(user: UserCenter): void {
  if (!getToken()) return;
  writeStorage(StorageKey.user, JSON.stringify(user));
  changed();
}

export function clearSession(): void {
  writeStorage(StorageKey.token, null);
  writeStorage(StorageKey.user, null);
  changed();
}

export function subscribeSession(cb: () => void): () => void {
  // "storage" covers logins and logouts made in another tab.
  window.addEventListener(AppEvent.session, cb);
  window.addEventListener('storage', cb);
  return () => {
    window.removeEventListener(AppEvent.session, cb);
    window.removeEventListener('storage', cb);
  };
}

export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
