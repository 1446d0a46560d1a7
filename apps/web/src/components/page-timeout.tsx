import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api-client';
import { DelayedLoader } from './delayed-loader';

export type Ping = () => Promise<boolean>;
const defaultPing: Ping = () => api.head('/api/ping').catch(() => false);

/**
 * Shown when a page fails to load: checks connectivity (HEAD /api/ping); if the server answers,
 * the page is reloaded, otherwise the offline message shows, with a retry. Plain (plain/plain.css),
 * as the route error view that shows it.
 */
export function PageTimeout({ ping = defaultPing, reload = () => window.location.reload() }: { ping?: Ping; reload?: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'checking' | 'offline'>('checking');

  useEffect(() => {
    if (state !== 'checking') return;
    let cancelled = false;
    void ping().then((online) => {
      if (cancelled) return;
      if (online) reload();
      else setState('offline');
    });
    return () => {
      cancelled = true;
    };
  }, [state, ping, reload]);

  if (state === 'checking') return <DelayedLoader label={t('app.loading')} />;
  return (
    <section className="hb-message">
      <title>{t('pageTimeout.pageTitle')}</title>
      <h1 className="hb-h1">{t('pageTimeout.title')}</h1>
      <p role="alert">{t('pageTimeout.text')}</p>
      <button type="button" className="hb-button hb-button-contained" onClick={() => setState('checking')}>
        {t('pageTimeout.retry')}
      </button>
    </section>
  );
}
