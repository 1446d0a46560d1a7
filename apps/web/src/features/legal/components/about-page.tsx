import { LegalDocument } from './legal-document';

export default function AboutPage() {
  return <LegalDocument doc="about" />;
}
