import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { COPYRIGHT_YEAR } from '@healthbook/shared/constants';
import { paths } from '../lib/paths';

/** Footer of every page: About, Privacy Policy, Terms & Conditions, the tagline and the copyright. Plain (plain/plain.css): it is on the sign-in page. */
export function Footer({ clientId, orgName }: { clientId: string; orgName: string }) {
  const { t } = useTranslation();
  return (
    <footer className="hb-footer">
      <nav aria-label={t('footer.label')} className="hb-footer-nav">
        <RouterLink className="hb-link" to={paths.about(clientId)}>
          {t('footer.about')}
        </RouterLink>
        <RouterLink className="hb-link" to={paths.privacy(clientId)}>
          {t('footer.privacy')}
        </RouterLink>
        <RouterLink className="hb-link" to={paths.terms(clientId)}>
          {t('footer.terms')}
        </RouterLink>
      </nav>
      <p className="hb-body2">{t('footer.tagline')}</p>
      <span className="hb-caption">{t('footer.copyright', { year: COPYRIGHT_YEAR, orgName })}</span>
    </footer>
  );
}
