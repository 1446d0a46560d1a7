import { useOrganizationContext } from '../../../../lib/organization-context';
import { useSignedInUser } from '../../hooks/use-signed-in-user';
import { WizardCard } from '../wizard-card';

/** Dashboard widget: the first-run wizard while it is pending. */
export default function WizardWidget() {
  const { clientId } = useOrganizationContext();
  return <WizardCard user={useSignedInUser()} clientId={clientId} />;
}
