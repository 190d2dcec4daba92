import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** Spec §8/§9: a page chunk that has not arrived after 120 s fails (and the error page offers a retry). */
export const CHUNK_TIMEOUT_MS = 120_000;

export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(
    () =>
      new Promise<{ default: ComponentType<P> }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('page chunk timed out')), CHUNK_TIMEOUT_MS);
        load().then(
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
}
