import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client';
import { PageTimeout } from './page-timeout';

/** A page load that failed for the network (chunk, timeout, server unreachable) gets the page-timeout screen. */
function isLoadFailure(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'LoadTimeoutError' ||
    error.name === 'TypeError' || // fetch: network failure; dynamic import: failed to fetch module
    /Failed to fetch|dynamically imported module|Importing a module script failed|Load failed/i.test(error.message)
  );
}

/** The error view of a route (plain, plain/plain.css: the router holds it from the first page on). */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isLoadFailure(error)) return <PageTimeout />;
  return (
    <main className="hb-message">
      <h1 className="hb-h1">{t('error.title')}</h1>
      <p>{t('error.text')}</p>
      <button type="button" className="hb-button hb-button-contained" onClick={() => window.location.reload()}>
        {t('error.reload')}
      </button>
    </main>
  );
}
