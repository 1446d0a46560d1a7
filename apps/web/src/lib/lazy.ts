import { LAZY_PAGE_TIMEOUT_MS } from '@healthbook/shared/constants';

export class LoadTimeoutError extends Error {
  override name = 'LoadTimeoutError';
}

/** Rejects when a lazy page has not arrived within the spec's 10 s, so the error view shows. */
export function withTimeout<T>(load: () => Promise<T>, ms = LAZY_PAGE_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new LoadTimeoutError('page load timed out')), ms);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** A lazy route module: its default export is the page component. */
export function lazyPage(load: () => Promise<{ default: React.ComponentType }>) {
  return async () => {
    const mod = await withTimeout(load);
    return { Component: mod.default };
  };
}
