import type { OrganizationLookup } from '@healthbook/shared/contracts/organizations';
import { api, ApiError } from './api-client';

/**
 * The organisation of the path, for the organisation loader (app/organization-loader.ts), without
 * the query client: the sign-in page does not load TanStack Query. Until the query client is
 * loaded, answers are kept here (5 minutes, as organizationQueryOptions, lib/organization-query.ts); once it is
 * (lib/query-client.ts), what is kept seeds it and every later lookup goes through it, so that
 * invalidating organisations reaches the branding too.
 */
export const ORGANIZATION_STALE_MS = 5 * 60_000;

export const getOrganization = (clientId: string) =>
  api.get<OrganizationLookup>(`/api/v1/organization_detail_by_name/${encodeURIComponent(clientId)}`);

interface QueryClientPort {
  ensure: (clientId: string) => Promise<OrganizationLookup>;
  seed: (clientId: string, data: OrganizationLookup, updatedAt: number) => void;
}

interface Entry {
  at: number;
  promise: Promise<OrganizationLookup>;
  data?: OrganizationLookup;
}

const kept = new Map<string, Entry>();
let queryClient: QueryClientPort | null = null;

/** As the query client's default: a 4xx is final; anything else is tried twice more (1 s, 2 s). */
async function fetchWithRetry(clientId: string): Promise<OrganizationLookup> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await getOrganization(clientId);
    } catch (error) {
      if ((error instanceof ApiError && error.status < 500) || attempt >= 2) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** attempt));
    }
  }
}

export function loadOrganization(clientId: string): Promise<OrganizationLookup> {
  if (queryClient) return queryClient.ensure(clientId);
  const hit = kept.get(clientId);
  if (hit && Date.now() - hit.at < ORGANIZATION_STALE_MS) return hit.promise;
  const entry: Entry = { at: Date.now(), promise: fetchWithRetry(clientId) };
  kept.set(clientId, entry);
  entry.promise.then(
    (data) => {
      entry.data = data;
    },
    () => {
      if (kept.get(clientId) === entry) kept.delete(clientId);
    },
  );
  return entry.promise;
}

/** Called once by lib/query-client.ts: what is kept moves into the query client, which answers from then on. */
export function handOverOrganizations(port: QueryClientPort): void {
  queryClient = port;
  for (const [clientId, entry] of kept) if (entry.data !== undefined) port.seed(clientId, entry.data, entry.at);
  kept.clear();
}
