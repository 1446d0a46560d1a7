import { useOrganizationContext } from '../../../../lib/organization-context';
import type { DashboardWidgetContext } from '../../../../lib/feature-module';
import { queryClient } from '../../../../lib/query-client';
import { wizardQueryOptions } from '../../api/get-wizard';
import { useSignedInUser } from '../../hooks/use-signed-in-user';
import { WizardCard } from '../wizard-card';

/** Dashboard widget: the first-run wizard while it is pending. */
export default function WizardWidget() {
  const { clientId } = useOrganizationContext();
  return <WizardCard user={useSignedInUser()} clientId={clientId} />;
}

/** The wizard's steps, loaded with the dashboard (lib/dashboard-widgets.ts). */
export const prefetch = ({ language }: DashboardWidgetContext) => queryClient.ensureQueryData(wizardQueryOptions(language));
