import { LegalDocument } from '../../../components/legal-document';

export default function PrivacyPage() {
  return <LegalDocument doc="privacy" />;
}
