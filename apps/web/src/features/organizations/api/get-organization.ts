import { useSuspenseQuery } from '@tanstack/react-query';
import { getOrganization } from '../../../lib/organization-cache';
import { organizationQueryOptions } from '../../../lib/organization-query';

export { getOrganization, organizationQueryOptions };

export const useOrganization = (clientId: string) => useSuspenseQuery(organizationQueryOptions(clientId));
