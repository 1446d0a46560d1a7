// The organisations' list is public and used beyond administration (the Connection Hub offers them by name).
export { getOrganizations, organizationsQueryOptions, useOrganizations } from '../../../lib/organization-query';
