import { LAZY_PAGE_TIMEOUT_MS } from '@healthbook/shared/constants';
import { i18n } from './i18n';

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

type PageModule = { default: React.ComponentType };

/**
 * A lazy route module: its default export is the page component. Pages use MUI and the query
 * client, so each comes with lib/mui-page.tsx, loaded beside it: the query client and, in the
 * public frame, the organisation's MUI theme and CssBaseline. A page drawn without MUI (the
 * sign-in page: plain elements, components/plain) says `plain: true` and comes alone. The
 * catalogs the page draws with (`namespaces`) load beside it, so it is drawn once they are in.
 */
export function lazyPage(load: () => Promise<PageModule>, { plain = false, namespaces = [] }: { plain?: boolean; namespaces?: readonly string[] } = {}) {
  return async () => {
    // A catalog that fails to load is the page's to show (it suspends on it again when drawn).
    const texts = namespaces.length ? i18n.loadNamespaces([...namespaces]).catch(() => undefined) : undefined;
    if (plain) return { Component: (await withTimeout(load)).default };
    const [mod, { withMuiPage }] = await withTimeout(() => Promise.all([load(), import('./mui-page'), texts]));
    return { Component: withMuiPage(mod.default) };
  };
}
