import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { loadAllTexts } from '../shared/i18n';

/** Spec §8/§9: a page chunk that has not arrived after 120 s fails (and the error page offers a retry). */
export const CHUNK_TIMEOUT_MS = 120_000;

export type LazyPage<P extends object> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts fetching the page's chunk now (main.tsx, for the page the app opens on). */
  preload(): void;
};

/**
 * A page whose chunk loads on first use. It renders once its chunk and every text of the language
 * are in (the app starts with the first screen's texts only, shared/i18n.ts); `firstScreen` pages
 * (Home) need only those.
 */
export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  opts: { firstScreen?: boolean } = {},
): LazyPage<P> {
  // one fetch, shared by preload() and the first render
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () => {
    loading ??= (opts.firstScreen ? load() : Promise.all([load(), loadAllTexts()]).then(([m]) => m)).catch(
      (e: unknown) => {
        loading = null; // a later render tries again
        throw e;
      },
    );
    return loading;
  };
  const page = lazy(
    () =>
      new Promise<{ default: ComponentType<P> }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('page chunk timed out')), CHUNK_TIMEOUT_MS);
        start().then(
          (m) => {
            clearTimeout(timer);
            resolve(m);
          },
          (e: unknown) => {
            clearTimeout(timer);
            reject(e);
          },
        );
      }),
  );
  return Object.assign(page, {
    preload() {
      start().catch(() => {}); // the render that needs it reports the failure
    },
  });
}
