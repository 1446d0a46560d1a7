import { redirect, type LoaderFunctionArgs } from 'react-router';
import { DEFAULT_CLIENT_ID } from '@healthbook/shared/constants';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { isOrganizationFound, normalizeClientId } from '@healthbook/shared/validation';
import { loadOrganization } from '../lib/organization-cache';
import { paths } from '../lib/paths';
import { signOut } from '../lib/auth';
import { session } from '../lib/session';

export interface OrganizationContext {
  /** The client id of the path, lower case. */
  clientId: string;
  /** Its organisation, or the default one when the path names none (404 page only). */
  org: OrganizationDetail;
  known: boolean;
}

/**
 * Resolves the organisation named by the first path segment: lower-cases it, loads its
 * branding, and sends unknown organisations to their 404 page (which shows default branding).
 */
export async function organizationLoader({ params, request }: LoaderFunctionArgs): Promise<OrganizationContext> {
  const raw = params.clientId ?? '';
  const url = new URL(request.url);
  const clientId = normalizeClientId(raw);
  if (!clientId) throw redirect(paths.notFound(DEFAULT_CLIENT_ID));
  if (raw !== clientId) throw redirect(`/${clientId}${url.pathname.slice(raw.length + 1)}${url.search}`);

  const org = await loadOrganization(clientId);
  if (isOrganizationFound(org)) {
    // A member of another organisation opening this one's pages is signed out first (§2 route rules).
    const claims = session.claims();
    if (claims && claims.org !== org.org) await signOut(clientId);
    // A deactivated organisation: every address of it shows the page saying so (its sessions are over).
    if (org.active === false && url.pathname !== paths.organizationDeactivated(clientId)) {
      if (session.claims()) await signOut(clientId);
      throw redirect(paths.organizationDeactivated(clientId));
    }
    return { clientId, org, known: true };
  }
  if (url.pathname !== paths.notFound(clientId)) throw redirect(paths.notFound(clientId));

  const fallback = await loadOrganization(DEFAULT_CLIENT_ID);
  if (!isOrganizationFound(fallback)) throw new Error('The default organisation is missing');
  return { clientId, org: fallback, known: false };
}

/** Any path no route knows: the 404 page of the organisation its first segment names. */
export function unknownPathLoader({ request }: LoaderFunctionArgs): never {
  const first = new URL(request.url).pathname.split('/').filter(Boolean)[0];
  throw redirect(paths.notFound(normalizeClientId(first) ?? DEFAULT_CLIENT_ID));
}
