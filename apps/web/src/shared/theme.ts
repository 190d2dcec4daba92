import { useSyncExternalStore } from 'react';
import { AppEvent } from './events';
import { readStorage, StorageKey, writeStorage } from './storage';

export type Theme = 'dark' | 'light';

const THEME_COLOR: Record<Theme, string> = { dark: '#0b1526', light: '#f5f7fa' };

export function storedTheme(): Theme {
  return readStorage(StorageKey.theme) === 'light' ? 'light' : 'dark';
}

/** Sets data-theme for our variables and antd-mobile's own dark switch on <html>. */
export function applyTheme(theme: Theme): void {
  const html = document.documentElement;
  html.dataset.theme = theme;
  if (theme === 'dark') html.setAttribute('data-prefers-color-scheme', 'dark');
  else html.removeAttribute('data-prefers-color-scheme');
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLOR[theme]);
}

export function setTheme(theme: Theme): void {
  writeStorage(StorageKey.theme, theme);
  applyTheme(theme);
  window.dispatchEvent(new Event(AppEvent.theme));
}

function subscribe(cb: () => void): () => void {
  window.addEventListener(AppEvent.theme, cb);
  return () => window.removeEventListener(AppEvent.theme, cb);
}

export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, storedTheme, storedTheme);
}
