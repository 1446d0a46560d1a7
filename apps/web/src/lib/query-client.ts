import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      // A 4xx will not change by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/**
 * For a query that consumes a one-time link (confirmations): sent once and its answer kept, so
 * neither a remount (StrictMode, coming back to the page) nor a retry sends the link again.
 */
export const ONE_TIME = { retry: false, staleTime: Infinity, gcTime: Infinity } as const;
