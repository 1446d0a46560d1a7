import { ProviderDirectory } from './provider-directory';

/** /telehealth/provider-list — the providers with free times (the specification's safehaven-provider-list). */
export default function ProviderListPage() {
  return <ProviderDirectory />;
}
