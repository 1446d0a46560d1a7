import { useTranslation } from 'react-i18next';
import { useHubFeatures } from '../../../lib/hub-features';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';

/** The reader's language for the API and the query keys. */
export function useLanguage(): string {
  const { i18n } = useTranslation('surveys');
  return i18n.resolvedLanguage ?? 'en';
}

/**
 * What the organisation offers after a survey, each only while its feature is active: a
 * telehealth visit, a chat (the peer-coaching page), the help area.
 */
export function useNextSteps() {
  const { org, clientId } = useOrganizationContext();
  const features = useHubFeatures(org.org, useLanguage());
  const active = (key: string) => features.status(key) === 'active';
  return {
    telehealth: active('teleconsultation') ? paths.telehealth(clientId) : null,
    chat: active('live-help') ? paths.peerCoaching(clientId) : null,
    help: active('help') ? paths.help(clientId) : null,
  };
}
