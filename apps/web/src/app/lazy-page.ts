import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** Spec §8/§9: a page chunk that has not arrived after 120 s fails (and the error page offers a retry). */
export const CHUNK_TIMEOUT_MS = 120_000;

export type LazyPage<P extends object> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts fetching the page's chunk now (main.tsx, for the page the app opens on). */
  preload(): void;
};

export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  // one fetch, shared by preload() and the first render
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () => {
    loading ??= load().catch((e: unknown) => {
      loading = null; // a later render tries again
      throw e;
    });
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
