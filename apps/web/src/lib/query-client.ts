import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { accessRefusal } from './record-access';
import { onClearLocalData } from './auth';
import { handOverOrganizations } from './organization-cache';
import { organizationQueryOptions } from './organization-query';
import { queryKeys } from './query-keys';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      // A 4xx will not change by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
      // A page the viewed record's access does not reach (read-only, some categories only) is
      // not "could not be loaded": the page's error boundary says why (app/access-refused.tsx).
      throwOnError: (error) => accessRefusal(error) !== null,
    },
  },
});

// Signing out empties it (lib/auth.ts does not import it: the sign-in page carries no query client),
// all but the organisations' public branding: a loader still waiting for it is not cancelled under its feet.
const isBranding = (key: readonly unknown[]) => key[0] === queryKeys.organizations.all[0] && key[1] === queryKeys.organizations.byName('')[1];
onClearLocalData(() => {
  queryClient.removeQueries({ predicate: (query) => !isBranding(query.queryKey) });
  queryClient.getMutationCache().clear();
});

// The organisations the first page looked up without it (app/organization-loader.ts) are its from now on.
handOverOrganizations({
  ensure: (clientId) => queryClient.ensureQueryData(organizationQueryOptions(clientId)),
  seed: (clientId, data, updatedAt) => queryClient.setQueryData(organizationQueryOptions(clientId).queryKey, data, { updatedAt }),
});

/**
 * For a query that consumes a one-time link (confirmations): sent once and its answer kept, so
 * neither a remount (StrictMode, coming back to the page) nor a retry sends the link again.
 */
export const ONE_TIME = { retry: false, staleTime: Infinity, gcTime: Infinity } as const;

/**
 * For a list that other people change: a provider's bookings (patients make them), a patient's
 * appointments (a provider may cancel one). The page asks again each time it shows and when the
 * window comes back, and every minute while it stays open and visible, so a new booking appears
 * without a reload.
 */
export const CHANGED_BY_OTHERS = { staleTime: 0, refetchOnWindowFocus: true, refetchInterval: 60_000 } as const;
