import { useOutletContext } from 'react-router';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';

/** What an organisation's layout gives its pages: the organisation and the client id for links. */
export interface OrganizationOutletContext {
  org: OrganizationDetail;
  clientId: string;
}

export const useOrganizationContext = () => useOutletContext<OrganizationOutletContext>();
