import { LegalDocument } from '../../../components/legal-document';

export default function AboutPage() {
  return <LegalDocument doc="about" />;
}
